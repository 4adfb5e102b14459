# Conditional branches take inputs by value.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}conditional_byref.pir:12:22: error: conditional: branch @t has a by-reference input %a; conditional branches take inputs by value
graph @t(%a: &f32[2]) -> (f32[2]) {
  return %a
}
graph @e(%a: &f32[2]) -> (f32[2]) {
  return %a
}
const %c : bool[] = true
var %x : f32[2] = 1
%y = conditional %c, @t(%x), @e(%x)
