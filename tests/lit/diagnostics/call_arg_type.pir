# Call arguments match parameter types exactly.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}call_arg_type.pir:9:14: error: call: argument 1 of @g has type f32[3], but parameter %a is f32[2]
# CHECK: {{.*}}call_arg_type.pir:5:10: note: parameter %a is declared here
graph @g(%a: f32[2]) -> (f32[2]) {
  return %a
}
const %x : f32[3] = 1
%y = call @g(%x)
