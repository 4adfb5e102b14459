# Tutorial step 7: the same training, data-parallel on two replicas.
# Each replica takes one sample of the batch, computes its own gradient, and
# replicated_all_reduce {op = mean} averages the gradients, so every replica
# applies the same step and the weights match step 6 exactly.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
ir {replication = 2, num_host_transfers = 3}

h2d $x : f32[2]
h2d $t : f32[]
d2h $loss : f32[]

graph @train_step(%w: &f32[2]) -> () {
  %x = host_load $x
  %t = host_load $t
  %p = mul %x, %w
  %pred = sum %p
  %e = sub %pred, %t
  %sq = mul %e, %e
  %loss = mul %sq, 0.5
  host_store $loss, %loss
  %local = mul %x, %e
  %grad = replicated_all_reduce %local {op = mean}
  scaled_add_ %w, %grad {b = -0.5}
  return
}

main {
  var %w : f32[2] = zeros
  repeat @train_step(%w) {count = 3}
}

# Buffers are [num_host_transfers] + [replicas] + shape.
feed $x = [[[1, 0], [0, 1]], [[1, 0], [0, 1]], [[1, 0], [0, 1]]]
feed $t = [[2, -4], [2, -4], [2, -4]]
run
print $loss, %w
# Per replica, loss = e^2 / 2: step 1 e = -2 | 4 -> 2 | 8; step 2 e = -1.5 | 3 ->
# 1.125 | 4.5; step 3 e = -1.125 | 2.25 -> 0.6328125 | 2.53125.
# CHECK: $loss: f32[3,2] = {{\[\[}}2, 8], [1.125, 4.5], [0.6328125, 2.53125]]
# CHECK-NEXT: %w: f32[2] = [1.15625, -2.3125]
