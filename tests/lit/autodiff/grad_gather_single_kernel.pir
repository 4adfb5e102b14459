# gather differentiates to one gather_grad (one pass over g, whatever the size of x),
# not to a one-hot matrix of indices by x's rows; gather_grad differentiates back to a
# gather; scatter's values gradient is a gather_elements of g.
# RUN: %pir opt %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VAL
graph @f(%x: f32[1000,4], %i: i32[2,3]) -> (f32[2,3,4]) {
  %y = gather %x, %i
  return %y
}
autodiff @f -> @f_grad
# CHECK-LABEL: graph @f_grad(
# CHECK-NOT: onehot
# CHECK: = gather_grad %{{[0-9a-z.]+}}, %i {size = 1000} : f32[1000,4]
# CHECK-NOT: matmul
# CHECK: return
graph @h(%g: f32[2,3,4], %i: i32[2,3]) -> (f32[1000,4]) {
  %d = gather_grad %g, %i {size = 1000}
  return %d
}
autodiff @h -> @h_grad
# CHECK-LABEL: graph @h_grad(
# CHECK: = gather %{{[0-9a-z.]+}}, %i : f32[2,3,4]
graph @s(%x: f32[2,3], %i: i32[2,2], %v: f32[2,2]) -> (f32[2,3]) {
  %y = scatter %x, %i, %v {axis = 1}
  return %y
}
autodiff @s -> @s_grad
# CHECK-LABEL: graph @s_grad(
# CHECK-NOT: onehot
# CHECK: = gather_elements %{{[0-9a-z.]+}}, %i {axis = 1} : f32[2,2]
main {
  const %x : f32[1000,4] = 0
  const %i : i32[2,3] = [[0, 999, 0], [-1, 5, 0]]
  const %up : f32[2,3,4] = 1
  %y = call @f(%x, %i) as fwd
  %dx = call @f_grad(%up) using fwd
  %rows = slice %dx {start = [0], stop = [2]}
  %r5 = slice %dx {start = [5], stop = [6]}
  %last = slice %dx {start = [999], stop = [1000]}
  %total = sum %dx
  const %g : f32[2,3,4] = 2
  %d = call @h(%g, %i) as hfwd
  %dg = call @h_grad(%d) using hfwd
  %dgs = sum %dg
  const %sx : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  const %si : i32[2,2] = [[2, 0], [-1, 1]]
  const %sv : f32[2,2] = 0
  %sy = call @s(%sx, %si, %sv) as sfwd
  const %sup : f32[2,3] = [[10, 20, 30], [40, 50, 60]]
  %sdx, %sdv = call @s_grad(%sup) using sfwd
}
run
print %rows, %r5, %last, %total, %dgs, %sdx, %sdv
# VAL: %rows: f32[2,4] = {{\[\[}}3, 3, 3, 3], [0, 0, 0, 0]]
# VAL-NEXT: %r5: f32[1,4] = {{\[\[}}1, 1, 1, 1]]
# VAL-NEXT: %last: f32[1,4] = {{\[\[}}2, 2, 2, 2]]
# VAL-NEXT: %total: f32[] = 24
# VAL-NEXT: %dgs: f32[] = 112
# VAL-NEXT: %sdx: f32[2,3] = {{\[\[}}0, 20, 0], [40, 0, 0]]
# VAL-NEXT: %sdv: f32[2,2] = {{\[\[}}30, 10], [60, 50]]
