# Tutorial step 8: the training of step 7, data-parallel on two replicas.
# Each replica takes one sample of the batch and runs the forward and gradient
# graphs on it; replicated_all_reduce {op = mean} averages the gradients, so
# every replica applies the same step and the weights match steps 6 and 7.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
# Step 9 profiles this program on the emulated device, as it is and after the
# merge-exchange pass (the figures are the cost model's, deterministic).
# RUN: %pir profile %s | FileCheck %s --check-prefix=PROFILE
# RUN: %pir profile --passes=merge-exchange %s | FileCheck %s --check-prefix=MERGED
ir {replication = 2, num_host_transfers = 3}

h2d $x : f32[2]
h2d $t : f32[]
d2h $loss : f32[]

graph @loss_fn(%x: f32[2], %t: f32[], %w: f32[2]) -> (f32[]) {
  %p = mul %x, %w
  %pred = sum %p
  %e = sub %pred, %t
  %sq = mul %e, %e
  %loss = mul %sq, 0.5
  return %loss
}
autodiff @loss_fn -> @loss_grad {grads_required = [%w]}

graph @train_step(%w: &f32[2]) -> () {
  %x = host_load $x
  %t = host_load $t
  %loss = call @loss_fn(%x, %t, %w) as fwd
  %local = call @loss_grad(1.0) using fwd
  %grad = replicated_all_reduce %local {op = mean}
  scaled_add_ %w, %grad {b = -0.5}
  host_store $loss, %loss
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
#
# PROFILE: device: 1 IPU x 1472 tiles (0 io) of 638976 bytes, 1.33 GHz; replication 2; runs executed: 1
# PROFILE: cycles per run: 27378
# PROFILE: sync 7200 {{.*}}(48 syncs)
# PROFILE-NEXT: host IO 18009
# PROFILE: %x = host_load in @train_step
# MERGED: cycles per run: 20925
# MERGED: sync 6750 {{.*}}(45 syncs)
# MERGED-NEXT: host IO 12006
