# Random numbers as PopXL makes them: seeds are u32[2] tensors, every random op
# is a pure function of (seed, replica, element index) through Philox4x32-10,
# so a program draws the same values on every machine and thread count
# (runtime.md §6, docs/decisions.md "Random ops").
#
# - `uniform(low, high, seed)` initialises a variable from a seed of its own;
# - `split_random_seed` derives fresh seeds, so each training step (each
#   iteration of the repeat) draws a new dropout mask from a carried seed;
# - `dropout` zeroes each element with probability p and scales the kept ones
#   by 1/(1-p), so every element here is 0 or 2;
# - 10000 normal draws have a mean near 0 and a standard deviation near 1.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
ir {num_host_transfers = 3}

d2h $mask : f32[8]

graph @step(%seed: u32[2], %h: f32[8]) -> (u32[2]) {
  %next, %use = split_random_seed %seed
  %dropped = dropout %h, %use {p = 0.5}
  host_store $mask, %dropped
  return %next
}

main {
  var %w : f32[4] = uniform(-1, 1, 7)
  const %seed : u32[2] = [2024, 11]
  const %h : f32[8] = [1, 1, 1, 1, 1, 1, 1, 1]
  %last = repeat @step(%seed, %h) {count = 3}
  %z = random_normal %seed {shape = [10000]}
  %mean = mean %z
  %c = sub %z, %mean
  %c2 = mul %c, %c
  %var = mean %c2
  %std = sqrt %var
}

run
print %w, $mask, %mean, %std
# The values are pinned: they are the same on every machine and thread count.
# The weights lie in [-1, 1); each step's mask differs (a new seed per step);
# 10000 normal draws: mean 0.028 (standard error 0.01), standard deviation 1.0004.
# CHECK: %w: f32[4] = [0.90919423, 0.50030446, -0.77164525, -0.8286843]
# CHECK-NEXT: $mask: f32[3,8] = {{\[\[}}0, 0, 2, 2, 2, 2, 2, 2], [0, 2, 2, 0, 2, 0, 2, 2], [0, 2, 2, 2, 2, 2, 2, 2]]
# CHECK-NEXT: %mean: f32[] = 0.027775304
# CHECK-NEXT: %std: f32[] = 1.0003862
