# nll_loss with class weights (ONNX NegativeLogLikelihoodLoss's `weight`, PyTorch's):
# each counted row's loss times its label's weight; `mean` divides by the sum of
# the counted rows' weights, so all-ignored rows or zero weights give 0/0 = NaN,
# and unit weights give the unweighted loss. Expected values: PyTorch's nll_loss
# in float64, worked out when this test was written; numbers compare within
# 1e-4 relative (Inputs/check_grads.py).
# RUN: %pir run %s > %t && %python %S/../autodiff/Inputs/check_grads.py %s %t
main {
  const %p : f32[4,3] = [[0.2, 0.5, 0.3], [0.6, 0.25, 0.15], [0.1, 0.1, 0.8], [0.45, 0.35, 0.2]]
  const %t : i32[4] = [1, 0, 2, 2]
  const %w : f32[3] = [0.5, 2, 1.25]
  const %zw : f32[3] = [0, 0, 0]
  const %ones : f32[3] = [1, 1, 1]
  const %lp : f32[2,2,3] = [[[-0.5, -1.25, -2], [-3, -0.25, -1.5]], [[-0.75, -0.5, -2.5], [-1, -2, -0.125]]]
  const %lt : i32[2,2] = [[2, 7], [0, 1]]
  const %none : i32[2,2] = [[7, 7], [7, 7]]
  %w_none = nll_loss %p, %t, %w {reduction = none}
  %w_sum = nll_loss %p, %t, %w {reduction = sum}
  %w_mean = nll_loss %p, %t, %w {reduction = mean}
  %i_none = nll_loss %lp, %lt, %w {reduction = none, ignore_index = 7, log_prob = true}
  %i_sum = nll_loss %lp, %lt, %w {reduction = sum, ignore_index = 7, log_prob = true}
  %i_mean = nll_loss %lp, %lt, %w {reduction = mean, ignore_index = 7, log_prob = true}
  %none_counted = nll_loss %lp, %none, %w {ignore_index = 7, log_prob = true}
  %zero_w = nll_loss %p, %t, %zw
  %unit_w = nll_loss %p, %t, %ones
}
run
print %w_none, %w_sum, %w_mean, %i_none, %i_sum, %i_mean, %none_counted, %zero_w, %unit_w
# EXPECT: %w_none: f32[4] = [1.3862944, 0.25541279, 0.27892942, 2.0117974]
# EXPECT: %w_sum: f32[] = 3.9324339
# EXPECT: %w_mean: f32[] = 0.78648679
# EXPECT: %i_none: f32[2,2] = [[2.5, 0], [0.375, 4]]
# EXPECT: %i_sum: f32[] = 6.875
# EXPECT: %i_mean: f32[] = 1.8333333
# EXPECT: %none_counted: f32[] = nan
# EXPECT: %zero_w: f32[] = nan
# EXPECT: %unit_w: f32[] = 0.75913855
