# relu's gradient masks by relu's result (y > 0, the same mask as x > 0): the gradient
# graph takes y as its activation, not the sum before relu, so the forward pass need
# not keep that sum. The values: a NaN, -0 and +0 give no gradient, as with x > 0.
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s
graph @f(%x: f32[5], %b: f32[5]) -> (f32[5]) {
  %s = add %x, %b
  %y = relu %s
  return %y
}
autodiff @f -> @f_grad
# IR: graph @f_grad(%grad.y: f32[5], %y: f32[5]) -> (f32[5], f32[5]) attributes {grad_of = @f, activations = [%y]} {
# IR-NEXT:   %0 = greater %y, 0 : bool[5]
main {
  const %x : f32[5] = [1.5, -2, nan, -0.0, 0]
  const %b : f32[5] = [0, 0, 0, 0, 0]
  const %g : f32[5] = [3, 3, 3, 3, 3]
  %y = call @f(%x, %b) as fwd
  %dx, %db = call @f_grad(%g) using fwd
}
run
print %dx
# CHECK: %dx: f32[5] = [3, 0, 0, 0, 0]
