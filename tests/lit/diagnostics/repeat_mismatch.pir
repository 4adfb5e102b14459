# Repeat outputs carry into inputs of the same type.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}repeat_mismatch.pir:9:13: error: repeat: body @body output 1 has type i32[2], but the input %a it carries into is f32[2]
graph @body(%a: f32[2]) -> (i32[2]) {
  %b = cast %a {dtype = i32}
  return %b
}
const %x : f32[2] = 1
%y = repeat @body(%x) {count = 2}
