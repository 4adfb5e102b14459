# In-place writes to a by-value input change only the callee's copy; to a
# by-reference input they change the caller's tensor.
# RUN: %pir run %s | FileCheck %s
graph @inc(%t: f32[2]) -> (f32[2]) {
  %u = add_ %t, 1
  return %u
}
graph @inc_ref(%t: &f32[2]) -> () {
  add_ %t, 1
  return
}
main {
  var %a : f32[2] = [1, 2]
  var %b : f32[2] = [1, 2]
  %r = call @inc(%a)
  call @inc_ref(%b)
  %c = add %a, 0
}
run
print %a, %r, %b, %c
# CHECK: %a: f32[2] = [1, 2]
# CHECK-NEXT: %r: f32[2] = [2, 3]
# CHECK-NEXT: %b: f32[2] = [2, 3]
# CHECK-NEXT: %c: f32[2] = [1, 2]
run
print %b
# CHECK-NEXT: %b: f32[2] = [3, 4]
