# Data-parallel replicas and collectives (runtime.md §5, ops.md "Replica collectives").
# Four replicas each read their own row of the $x buffer (shape [R] + [2]) and
# combine them with collectives over all replicas or over groups
# (stride, group_size):
#   group = (1, 2): replicas {0, 1} and {2, 3}
#   group = (2, 2): replicas {0, 2} and {1, 3}
# Every d2h buffer has shape [R] + S: one row per replica.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
ir {replication = 4}

h2d $x : f32[2]
d2h $total : f32[2]
d2h $pairs : f32[2]
d2h $strided : f32[2]
d2h $gathered : f32[2,2]
d2h $part : f32[1]
d2h $biased : f32[2]

main {
  # One weight vector, equal on every replica, updated with the mean over all
  # replicas: the data-parallel form of a gradient step.
  var %w : f32[2] = [1, 1]
  # A grouped variable: one copy per group of (1, 2), initialised per group.
  var %bias : f32[2] = [[0, 0], [100, 100]] {replica_grouping = (1, 2)}

  %x = host_load $x
  %total = replicated_all_reduce %x
  %pairs = replicated_all_reduce %x {group = (1, 2)}
  %strided = replicated_all_reduce %x {op = max, group = (2, 2)}
  %gathered = replicated_all_gather %x {group = (1, 2)}
  %part = replicated_reduce_scatter %x {group = (1, 2)}
  %mean = replicated_all_reduce %x {op = mean}
  accumulate_ %w, %mean
  %biased = add %pairs, %bias
  %shown = print_tensor %mean {title = "mean"}

  host_store $total, %total
  host_store $pairs, %pairs
  host_store $strided, %strided
  host_store $gathered, %gathered
  host_store $part, %part
  host_store $biased, %biased
}

# Replica r reads row r.
feed $x = [[1, 2], [3, 4], [5, 6], [7, 8]]
run
print $total, $pairs, $strided, $gathered, $part, $biased, %w, %bias

# print_tensor lines come replica by replica: mean = ([1,2]+[3,4]+[5,6]+[7,8]) / 4 = [4, 5].
# CHECK: [replica 0] mean: [4, 5]
# CHECK-NEXT: [replica 1] mean: [4, 5]
# CHECK-NEXT: [replica 2] mean: [4, 5]
# CHECK-NEXT: [replica 3] mean: [4, 5]
# Sum over all four: [1+3+5+7, 2+4+6+8] = [16, 20] on every replica.
# CHECK-NEXT: $total: f32[4,2] = {{\[\[}}16, 20], [16, 20], [16, 20], [16, 20]]
# {0,1}: [1+3, 2+4] = [4, 6]; {2,3}: [5+7, 6+8] = [12, 14].
# CHECK-NEXT: $pairs: f32[4,2] = {{\[\[}}4, 6], [4, 6], [12, 14], [12, 14]]
# {0,2}: max([1,2], [5,6]) = [5, 6]; {1,3}: max([3,4], [7,8]) = [7, 8].
# CHECK-NEXT: $strided: f32[4,2] = {{\[\[}}5, 6], [7, 8], [5, 6], [7, 8]]
# new_axis gathering: [group_size] + S, the members in replica order.
# CHECK-NEXT: $gathered: f32[4,2,2] = {{\[\[\[}}1, 2], [3, 4]], {{\[\[}}1, 2], [3, 4]], {{\[\[}}5, 6], [7, 8]], {{\[\[}}5, 6], [7, 8]]]
# Reduce-scatter: the group sum ([4, 6] or [12, 14]) in chunks of ceil(2 / 2) = 1.
# CHECK-NEXT: $part: f32[4,1] = {{\[\[}}4], [6], [12], [14]]
# Group 0 (replicas 0, 1) has bias [0, 0]; group 1 (replicas 2, 3) has [100, 100].
# CHECK-NEXT: $biased: f32[4,2] = {{\[\[}}4, 6], [4, 6], [112, 114], [112, 114]]
# [1, 1] + [4, 5] on every replica; print shows one copy (no grouping).
# CHECK-NEXT: %w: f32[2] = [5, 6]
# One row per group (retrieval = one_per_group).
# CHECK-NEXT: %bias: f32[2,2] = {{\[\[}}0, 0], [100, 100]]
