# Call arguments match the parameter count.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}call_arg_count.pir:9:11: error: call: @g takes 1 argument, got 2
# CHECK: {{.*}}call_arg_count.pir:5:7: note: @g is defined here
graph @g(%a: f32[2]) -> (f32[2]) {
  return %a
}
const %x : f32[2] = 1
%y = call @g(%x, %x)
