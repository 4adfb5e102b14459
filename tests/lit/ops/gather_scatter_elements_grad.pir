# RUN: %pir run %s | FileCheck %s
# Gradients of gather_elements (a scatter_elements add into zeros) and
# scatter_elements: none (x where nothing was written; only the update that
# stays, the last of duplicates, gets g), add (both get g), mul (x gets g times
# the updates' product, an update g * y / update). PyTorch's values (gather,
# two scatters in order, scatter_add, scatter_reduce "prod").
graph @f(%x: f32[2,3], %u: f32[2,2]) -> (f32[]) {
  const %i : i32[2,2] = [[2, 0], [2, 2]]
  const %m : f32[2,2] = [[1, 2], [3, 4]]
  const %m3 : f32[2,3] = [[1, -1, 2], [0.5, 3, -2]]
  %g = gather_elements %x, %i {axis = 1}
  %gm = mul %g, %m
  %s1 = sum %gm
  %s = scatter_elements %x, %i, %u {axis = 1}
  %sa = scatter_elements %x, %i, %u {axis = 1, reduction = add}
  %sm = scatter_elements %x, %i, %u {axis = 1, reduction = mul}
  %p = add %s, %sa
  %p2 = add %p, %sm
  %pm = mul %p2, %m3
  %s2 = sum %pm
  %t = add %s1, %s2
  return %t
}
autodiff @f -> @df {grads_required = [%x, %u]}
main {
  const %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  const %u : f32[2,2] = [[10, 20], [0.5, 2]]
  %t = call @f(%x, %u) as fwd
  %dx, %du = call @df(1.0) using fwd
}
run
print %t, %dx, %du
# CHECK: %t: f32[] = 226
# CHECK-NEXT: %dx: f32[2,3] = {{\[\[}}23, -3, 23], [1.5, 9, 3]]
# CHECK-NEXT: %du: f32[2,2] = {{\[\[}}10, 3], [-26, -10]]
