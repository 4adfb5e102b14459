# Tutorial step 7: the training of step 6, with the gradient made by autodiff.
# @loss_fn is the forward computation only; `autodiff @loss_fn -> @loss_grad`
# creates the gradient graph (PopXL's popxl.transforms.autodiff). The step
# calls the forward graph `as fwd` and the gradient graph `using fwd`, which
# hands it the activations the forward call kept. The numbers are those of step 6.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir opt %s | FileCheck %s --check-prefix=GRAD
ir {num_host_transfers = 3}

h2d $x : f32[2,2]
h2d $t : f32[2]
d2h $loss : f32[]

graph @loss_fn(%x: f32[2,2], %t: f32[2], %w: f32[2]) -> (f32[]) {
  %pred = matmul %x, %w
  %e = sub %pred, %t
  %sq = mul %e, %e
  %m = mean %sq
  %loss = mul %m, 0.5
  return %loss
}
autodiff @loss_fn -> @loss_grad {grads_required = [%w]}

graph @train_step(%w: &f32[2]) -> () {
  %x = host_load $x
  %t = host_load $t
  %loss = call @loss_fn(%x, %t, %w) as fwd
  %dw = call @loss_grad(1.0) using fwd
  scaled_add_ %w, %dw {b = -0.5}
  host_store $loss, %loss
  return
}

main {
  var %w : f32[2] = zeros
  repeat @train_step(%w) {count = 3}
}

feed $x = [[[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]]]
feed $t = [[2, -4], [2, -4], [2, -4]]
run
print $loss, %w
# CHECK: $loss: f32[3] = [5, 2.8125, 1.5820312]
# CHECK-NEXT: %w: f32[2] = [1.15625, -2.3125]
#
# `pir opt` prints the graphs autodiff made: the forward graph gains its
# activations as extra outputs, and the gradient graph takes the output's
# gradient first, then those activations.
# GRAD: graph @loss_fn(%x: f32[2,2], %t: f32[2], %w: f32[2]) -> (f32[], f32[2]) {
# GRAD: return %loss, %e
# GRAD: graph @loss_grad(%grad.loss: f32[], %e: f32[2], %x: f32[2,2]) -> (f32[2]) attributes {grad_of = @loss_fn, activations = [%e, %x]} {
# GRAD: %dw = call @loss_grad(1, %0, %x) : f32[2]
