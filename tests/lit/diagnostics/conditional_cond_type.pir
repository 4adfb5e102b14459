# The condition is bool[] or bool[1].
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}conditional_cond_type.pir:10:18: error: conditional: condition must be bool[] or bool[1], got f32[]
# CHECK: {{.*}}conditional_cond_type.pir:8:7: note: %c is declared here
graph @t(%a: f32[2]) -> (f32[2]) {
  return %a
}
const %c : f32[] = 1
const %x : f32[2] = 1
%y = conditional %c, @t(%x), @t(%x)
