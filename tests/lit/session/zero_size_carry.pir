# Zero-size tensors through calls, repeat carries, concat and print: their bytes
# are never copied from or to a null pointer (the sanitizer run, `ctest -L
# sanitize`, makes UBSan fatal; repeat's staging of zero-size carries did this).
# RUN: %pir run %s | FileCheck %s
graph @f(%x: f32[0], %y: f32[2,0]) -> (f32[0], f32[2,0]) {
  %a = add %x, 1
  %b = mul %y, 2
  return %a, %b
}
main {
  const %e : f32[0] = []
  const %e2 : f32[2,0] = [[], []]
  %a, %b = repeat @f(%e, %e2) {count = 3}
  %c, %d = call @f(%e, %e2)
  %s = concat %a, %c {axis = 0}
  %t = concat %b, %d {axis = 1}
}
run
print %a
print %b
print %s
print %t
# CHECK: %a: f32[0] = []
# CHECK-NEXT: %b: f32[2,0] = {{\[\[}}], []]
# CHECK-NEXT: %s: f32[0] = []
# CHECK-NEXT: %t: f32[2,0] = {{\[\[}}], []]
