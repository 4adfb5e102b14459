# Views of graph inputs: a write through a view of a by-reference input changes the
# caller's tensor; through a view of a by-value input only the callee's copy. A view
# passed by reference is written back to its operand after the call.
# RUN: %pir run %s | FileCheck %s
graph @bump(%p: &f32[2,3]) {
  %t = transpose_ %p
  add_ %t, [[1, 10], [2, 20], [3, 30]]
  return
}
graph @zeroed(%p: f32[2,3]) -> (f32[3,2]) {
  %t = transpose_ %p
  mul_ %t, 0
  return %t
}
graph @bumpT(%q: &f32[3,2]) {
  add_ %q, 100
  return
}
main {
  var %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  %t = transpose_ %x
  call @bump(%x)
  %seen = identity %t
  %z = call @zeroed(%x)
  %kept = identity %x
  call @bumpT(%t)
  %y = identity %x
}
run
print %seen, %z, %kept, %y, %t
# CHECK: %seen: f32[3,2] = {{\[\[}}2, 14], [4, 25], [6, 36]]
# CHECK-NEXT: %z: f32[3,2] = {{\[\[}}0, 0], [0, 0], [0, 0]]
# CHECK-NEXT: %kept: f32[2,3] = {{\[\[}}2, 4, 6], [14, 25, 36]]
# CHECK-NEXT: %y: f32[2,3] = {{\[\[}}102, 104, 106], [114, 125, 136]]
# CHECK-NEXT: %t: f32[3,2] = {{\[\[}}102, 114], [104, 125], [106, 136]]
