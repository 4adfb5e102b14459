# The gradient of l2 at the zero vector is 0 (PyTorch's subgradient), not 0/0 = nan;
# elsewhere it is x / |x|. PyTorch: torch.linalg.vector_norm(x, dim=1) backward with
# upstream [2, 3] at x = [[0, 0, 0], [3, 0, -4]] gives [[0, 0, 0], [1.8, 0, -2.4]].
# RUN: %pir run %s | FileCheck %s
graph @f(%x: f32[2,3]) -> (f32[2]) {
  %y = l2 %x {axis = 1}
  return %y
}
autodiff @f -> @f_grad
main {
  const %x : f32[2,3] = [[0, 0, 0], [3, 0, -4]]
  const %up.y : f32[2] = [2, 3]
  %out.y = call @f(%x) as fwd0
  %d.x = call @f_grad(%up.y) using fwd0
}
run
print %d.x
# CHECK: %d.x: f32[2,3] = {{\[\[}}0, 0, 0], [1.8000001, 0, -2.4]]
