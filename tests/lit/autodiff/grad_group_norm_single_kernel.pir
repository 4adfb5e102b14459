# group_norm differentiates to one group_norm_grad carrying its attributes (the row
# statistics recomputed from x), not to a chain of means, products and broadcasts;
# values within 1e-6 of float64's (dgamma 26.509369, -10.888914, 3.0122130, -0.85373694;
# dbeta -26.768115, -4.8254661, 12.876735, -4.2); grad_group_norm.pir checks dx.
# RUN: %pir opt %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VAL
graph @f(%x: f32[2,4,3], %g: f32[4], %b: f32[4]) -> (f32[]) {
  %y = group_norm %x, %g, %b {groups = 2, epsilon = 0.001}
  %w = mul %y, %y
  %l = sum %w
  return %l
}
autodiff @f -> @f_grad
# CHECK-LABEL: graph @f_grad(
# CHECK-NOT: mean
# CHECK: = group_norm_grad %x, %g, %{{[0-9]+}} {groups = 2, epsilon = 0.001} : f32[2,4,3], f32[4], f32[4]
# CHECK-NOT: mean
# CHECK: return
main {
  const %x : f32[2,4,3] = [[[-0.8, -1.25, -0.71], [0.66, 0.27, -0.41], [-0.48, -1.96, -1.32], [-1.51, 0.77, 1.5]], [[-0.65, 1.97, -1.47], [0.0, -0.85, -1.12], [0.01, 0.54, 0.54], [-1.68, 0.33, 1.36]]]
  const %g : f32[4] = [1.3, -1.27, 1.51, -0.0]
  const %b : f32[4] = [-1.86, -0.04, 1.38, -0.35]
  %l = call @f(%x, %g, %b) as fwd
  %dx, %dg, %db = call @f_grad(1.0) using fwd
}
run
print %dg, %db
# VAL: %dg: f32[4] = [26.509373, -10.888915, 3.0122137, -0.8537369]
# VAL-NEXT: %db: f32[4] = [-26.768114, -4.825466, 12.876736, -4.2]
