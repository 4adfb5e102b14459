# Tutorial step 6: a training loop with a hand-written gradient.
# Linear regression pred = x @ w on a batch of two samples, loss = mean(e^2) / 2
# with e = pred - t, gradient x^T e / 2, step w -= 0.5 * gradient; three steps
# in one run (num_host_transfers = 3, the same batch each time).
#
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 3}

h2d $x : f32[2,2]
h2d $t : f32[2]
d2h $loss : f32[]

graph @train_step(%w: &f32[2]) -> () {
  %x = host_load $x
  %t = host_load $t
  %pred = matmul %x, %w
  %e = sub %pred, %t
  %sq = mul %e, %e
  %m = mean %sq
  %loss = mul %m, 0.5
  host_store $loss, %loss
  %xt = transpose %x
  %xe = matmul %xt, %e
  %grad = mul %xe, 0.5
  scaled_add_ %w, %grad {b = -0.5}
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
# Step 1: w = [0, 0], e = [-2, 4], loss = (4 + 16) / 4 = 5, grad = [-1, 2], w = [0.5, -1].
# Step 2: e = [-1.5, 3], loss = (2.25 + 9) / 4 = 2.8125, grad = [-0.75, 1.5], w = [0.875, -1.75].
# Step 3: e = [-1.125, 2.25], loss = (1.265625 + 5.0625) / 4 = 1.58203125,
#         grad = [-0.5625, 1.125], w = [1.15625, -2.3125].
# 1.58203125 is exact in f32 and prints as the shortest decimal that reads back to it.
# CHECK: $loss: f32[3] = [5, 2.8125, 1.5820312]
# CHECK-NEXT: %w: f32[2] = [1.15625, -2.3125]
