# replicated_reduce_scatter over every grouping of 8 replicas.
# Expected values: the reference model of collectives (members in replica order).
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
# RUN: %pir run --threads=3 %s | FileCheck %s
ir {replication = 8}
main {
  var %x : f32[3] = [[1, 0, 7], [2, 1, 6], [3, 2, 5], [4, 0, 4], [5, 1, 3], [6, 2, 2], [7, 0, 1], [8, 1, 0]] {replica_grouping = (1, 1)}
  %g1_1_add = replicated_reduce_scatter %x {op = add, group = (1, 1)}
  print_tensor %g1_1_add
  %g1_1_max = replicated_reduce_scatter %x {op = max, group = (1, 1)}
  print_tensor %g1_1_max
  %g1_1_mean = replicated_reduce_scatter %x {op = mean, group = (1, 1)}
  print_tensor %g1_1_mean
  %g1_2_add = replicated_reduce_scatter %x {op = add, group = (1, 2)}
  print_tensor %g1_2_add
  %g1_2_max = replicated_reduce_scatter %x {op = max, group = (1, 2)}
  print_tensor %g1_2_max
  %g1_2_mean = replicated_reduce_scatter %x {op = mean, group = (1, 2)}
  print_tensor %g1_2_mean
  %g1_4_add = replicated_reduce_scatter %x {op = add, group = (1, 4)}
  print_tensor %g1_4_add
  %g1_4_max = replicated_reduce_scatter %x {op = max, group = (1, 4)}
  print_tensor %g1_4_max
  %g1_4_mean = replicated_reduce_scatter %x {op = mean, group = (1, 4)}
  print_tensor %g1_4_mean
  %g1_8_add = replicated_reduce_scatter %x {op = add, group = (1, 8)}
  print_tensor %g1_8_add
  %g1_8_max = replicated_reduce_scatter %x {op = max, group = (1, 8)}
  print_tensor %g1_8_max
  %g1_8_mean = replicated_reduce_scatter %x {op = mean, group = (1, 8)}
  print_tensor %g1_8_mean
  %g2_4_add = replicated_reduce_scatter %x {op = add, group = (2, 4)}
  print_tensor %g2_4_add
  %g2_4_max = replicated_reduce_scatter %x {op = max, group = (2, 4)}
  print_tensor %g2_4_max
  %g2_4_mean = replicated_reduce_scatter %x {op = mean, group = (2, 4)}
  print_tensor %g2_4_mean
  %g4_2_add = replicated_reduce_scatter %x {op = add, group = (4, 2)}
  print_tensor %g4_2_add
  %g4_2_max = replicated_reduce_scatter %x {op = max, group = (4, 2)}
  print_tensor %g4_2_max
  %g4_2_mean = replicated_reduce_scatter %x {op = mean, group = (4, 2)}
  print_tensor %g4_2_mean
  %g8_1_add = replicated_reduce_scatter %x {op = add, group = (8, 1)}
  print_tensor %g8_1_add
  %g8_1_max = replicated_reduce_scatter %x {op = max, group = (8, 1)}
  print_tensor %g8_1_max
  %g8_1_mean = replicated_reduce_scatter %x {op = mean, group = (8, 1)}
  print_tensor %g8_1_mean
}
run
# CHECK: [replica 0] g1_1_add: [1, 0, 7]
# CHECK-NEXT: [replica 0] g1_1_max: [1, 0, 7]
# CHECK-NEXT: [replica 0] g1_1_mean: [1, 0, 7]
# CHECK-NEXT: [replica 0] g1_2_add: [3, 1]
# CHECK-NEXT: [replica 0] g1_2_max: [2, 1]
# CHECK-NEXT: [replica 0] g1_2_mean: [1.5, 0.5]
# CHECK-NEXT: [replica 0] g1_4_add: [10]
# CHECK-NEXT: [replica 0] g1_4_max: [4]
# CHECK-NEXT: [replica 0] g1_4_mean: [2.5]
# CHECK-NEXT: [replica 0] g1_8_add: [36]
# CHECK-NEXT: [replica 0] g1_8_max: [8]
# CHECK-NEXT: [replica 0] g1_8_mean: [4.5]
# CHECK-NEXT: [replica 0] g2_4_add: [16]
# CHECK-NEXT: [replica 0] g2_4_max: [7]
# CHECK-NEXT: [replica 0] g2_4_mean: [4]
# CHECK-NEXT: [replica 0] g4_2_add: [6, 1]
# CHECK-NEXT: [replica 0] g4_2_max: [5, 1]
# CHECK-NEXT: [replica 0] g4_2_mean: [3, 0.5]
# CHECK-NEXT: [replica 0] g8_1_add: [1, 0, 7]
# CHECK-NEXT: [replica 0] g8_1_max: [1, 0, 7]
# CHECK-NEXT: [replica 0] g8_1_mean: [1, 0, 7]
# CHECK-NEXT: [replica 1] g1_1_add: [2, 1, 6]
# CHECK-NEXT: [replica 1] g1_1_max: [2, 1, 6]
# CHECK-NEXT: [replica 1] g1_1_mean: [2, 1, 6]
# CHECK-NEXT: [replica 1] g1_2_add: [13, 0]
# CHECK-NEXT: [replica 1] g1_2_max: [7, 0]
# CHECK-NEXT: [replica 1] g1_2_mean: [6.5, 0]
# CHECK-NEXT: [replica 1] g1_4_add: [3]
# CHECK-NEXT: [replica 1] g1_4_max: [2]
# CHECK-NEXT: [replica 1] g1_4_mean: [0.75]
# CHECK-NEXT: [replica 1] g1_8_add: [7]
# CHECK-NEXT: [replica 1] g1_8_max: [2]
# CHECK-NEXT: [replica 1] g1_8_mean: [0.875]
# CHECK-NEXT: [replica 1] g2_4_add: [20]
# CHECK-NEXT: [replica 1] g2_4_max: [8]
# CHECK-NEXT: [replica 1] g2_4_mean: [5]
# CHECK-NEXT: [replica 1] g4_2_add: [8, 3]
# CHECK-NEXT: [replica 1] g4_2_max: [6, 2]
# CHECK-NEXT: [replica 1] g4_2_mean: [4, 1.5]
# CHECK-NEXT: [replica 1] g8_1_add: [2, 1, 6]
# CHECK-NEXT: [replica 1] g8_1_max: [2, 1, 6]
# CHECK-NEXT: [replica 1] g8_1_mean: [2, 1, 6]
# CHECK-NEXT: [replica 2] g1_1_add: [3, 2, 5]
# CHECK-NEXT: [replica 2] g1_1_max: [3, 2, 5]
# CHECK-NEXT: [replica 2] g1_1_mean: [3, 2, 5]
# CHECK-NEXT: [replica 2] g1_2_add: [7, 2]
# CHECK-NEXT: [replica 2] g1_2_max: [4, 2]
# CHECK-NEXT: [replica 2] g1_2_mean: [3.5, 1]
# CHECK-NEXT: [replica 2] g1_4_add: [22]
# CHECK-NEXT: [replica 2] g1_4_max: [7]
# CHECK-NEXT: [replica 2] g1_4_mean: [5.5]
# CHECK-NEXT: [replica 2] g1_8_add: [28]
# CHECK-NEXT: [replica 2] g1_8_max: [7]
# CHECK-NEXT: [replica 2] g1_8_mean: [3.5]
# CHECK-NEXT: [replica 2] g2_4_add: [3]
# CHECK-NEXT: [replica 2] g2_4_max: [2]
# CHECK-NEXT: [replica 2] g2_4_mean: [0.75]
# CHECK-NEXT: [replica 2] g4_2_add: [10, 2]
# CHECK-NEXT: [replica 2] g4_2_max: [7, 2]
# CHECK-NEXT: [replica 2] g4_2_mean: [5, 1]
# CHECK-NEXT: [replica 2] g8_1_add: [3, 2, 5]
# CHECK-NEXT: [replica 2] g8_1_max: [3, 2, 5]
# CHECK-NEXT: [replica 2] g8_1_mean: [3, 2, 5]
# CHECK-NEXT: [replica 3] g1_1_add: [4, 0, 4]
# CHECK-NEXT: [replica 3] g1_1_max: [4, 0, 4]
# CHECK-NEXT: [replica 3] g1_1_mean: [4, 0, 4]
# CHECK-NEXT: [replica 3] g1_2_add: [9, 0]
# CHECK-NEXT: [replica 3] g1_2_max: [5, 0]
# CHECK-NEXT: [replica 3] g1_2_mean: [4.5, 0]
# CHECK-NEXT: [replica 3] g1_4_add: [0]
# CHECK-NEXT: [replica 3] g1_4_max: [0]
# CHECK-NEXT: [replica 3] g1_4_mean: [0]
# CHECK-NEXT: [replica 3] g1_8_add: [0]
# CHECK-NEXT: [replica 3] g1_8_max: [0]
# CHECK-NEXT: [replica 3] g1_8_mean: [0]
# CHECK-NEXT: [replica 3] g2_4_add: [4]
# CHECK-NEXT: [replica 3] g2_4_max: [2]
# CHECK-NEXT: [replica 3] g2_4_mean: [1]
# CHECK-NEXT: [replica 3] g4_2_add: [12, 1]
# CHECK-NEXT: [replica 3] g4_2_max: [8, 1]
# CHECK-NEXT: [replica 3] g4_2_mean: [6, 0.5]
# CHECK-NEXT: [replica 3] g8_1_add: [4, 0, 4]
# CHECK-NEXT: [replica 3] g8_1_max: [4, 0, 4]
# CHECK-NEXT: [replica 3] g8_1_mean: [4, 0, 4]
# CHECK-NEXT: [replica 4] g1_1_add: [5, 1, 3]
# CHECK-NEXT: [replica 4] g1_1_max: [5, 1, 3]
# CHECK-NEXT: [replica 4] g1_1_mean: [5, 1, 3]
# CHECK-NEXT: [replica 4] g1_2_add: [11, 3]
# CHECK-NEXT: [replica 4] g1_2_max: [6, 2]
# CHECK-NEXT: [replica 4] g1_2_mean: [5.5, 1.5]
# CHECK-NEXT: [replica 4] g1_4_add: [26]
# CHECK-NEXT: [replica 4] g1_4_max: [8]
# CHECK-NEXT: [replica 4] g1_4_mean: [6.5]
# CHECK-NEXT: [replica 4] g1_8_add: [0]
# CHECK-NEXT: [replica 4] g1_8_max: [0]
# CHECK-NEXT: [replica 4] g1_8_mean: [0]
# CHECK-NEXT: [replica 4] g2_4_add: [16]
# CHECK-NEXT: [replica 4] g2_4_max: [7]
# CHECK-NEXT: [replica 4] g2_4_mean: [4]
# CHECK-NEXT: [replica 4] g4_2_add: [10, 0]
# CHECK-NEXT: [replica 4] g4_2_max: [7, 0]
# CHECK-NEXT: [replica 4] g4_2_mean: [5, 0]
# CHECK-NEXT: [replica 4] g8_1_add: [5, 1, 3]
# CHECK-NEXT: [replica 4] g8_1_max: [5, 1, 3]
# CHECK-NEXT: [replica 4] g8_1_mean: [5, 1, 3]
# CHECK-NEXT: [replica 5] g1_1_add: [6, 2, 2]
# CHECK-NEXT: [replica 5] g1_1_max: [6, 2, 2]
# CHECK-NEXT: [replica 5] g1_1_mean: [6, 2, 2]
# CHECK-NEXT: [replica 5] g1_2_add: [5, 0]
# CHECK-NEXT: [replica 5] g1_2_max: [3, 0]
# CHECK-NEXT: [replica 5] g1_2_mean: [2.5, 0]
# CHECK-NEXT: [replica 5] g1_4_add: [4]
# CHECK-NEXT: [replica 5] g1_4_max: [2]
# CHECK-NEXT: [replica 5] g1_4_mean: [1]
# CHECK-NEXT: [replica 5] g1_8_add: [0]
# CHECK-NEXT: [replica 5] g1_8_max: [0]
# CHECK-NEXT: [replica 5] g1_8_mean: [0]
# CHECK-NEXT: [replica 5] g2_4_add: [12]
# CHECK-NEXT: [replica 5] g2_4_max: [6]
# CHECK-NEXT: [replica 5] g2_4_mean: [3]
# CHECK-NEXT: [replica 5] g4_2_add: [8, 0]
# CHECK-NEXT: [replica 5] g4_2_max: [6, 0]
# CHECK-NEXT: [replica 5] g4_2_mean: [4, 0]
# CHECK-NEXT: [replica 5] g8_1_add: [6, 2, 2]
# CHECK-NEXT: [replica 5] g8_1_max: [6, 2, 2]
# CHECK-NEXT: [replica 5] g8_1_mean: [6, 2, 2]
# CHECK-NEXT: [replica 6] g1_1_add: [7, 0, 1]
# CHECK-NEXT: [replica 6] g1_1_max: [7, 0, 1]
# CHECK-NEXT: [replica 6] g1_1_mean: [7, 0, 1]
# CHECK-NEXT: [replica 6] g1_2_add: [15, 1]
# CHECK-NEXT: [replica 6] g1_2_max: [8, 1]
# CHECK-NEXT: [replica 6] g1_2_mean: [7.5, 0.5]
# CHECK-NEXT: [replica 6] g1_4_add: [6]
# CHECK-NEXT: [replica 6] g1_4_max: [3]
# CHECK-NEXT: [replica 6] g1_4_mean: [1.5]
# CHECK-NEXT: [replica 6] g1_8_add: [0]
# CHECK-NEXT: [replica 6] g1_8_max: [0]
# CHECK-NEXT: [replica 6] g1_8_mean: [0]
# CHECK-NEXT: [replica 6] g2_4_add: [0]
# CHECK-NEXT: [replica 6] g2_4_max: [0]
# CHECK-NEXT: [replica 6] g2_4_mean: [0]
# CHECK-NEXT: [replica 6] g4_2_add: [6, 0]
# CHECK-NEXT: [replica 6] g4_2_max: [5, 0]
# CHECK-NEXT: [replica 6] g4_2_mean: [3, 0]
# CHECK-NEXT: [replica 6] g8_1_add: [7, 0, 1]
# CHECK-NEXT: [replica 6] g8_1_max: [7, 0, 1]
# CHECK-NEXT: [replica 6] g8_1_mean: [7, 0, 1]
# CHECK-NEXT: [replica 7] g1_1_add: [8, 1, 0]
# CHECK-NEXT: [replica 7] g1_1_max: [8, 1, 0]
# CHECK-NEXT: [replica 7] g1_1_mean: [8, 1, 0]
# CHECK-NEXT: [replica 7] g1_2_add: [1, 0]
# CHECK-NEXT: [replica 7] g1_2_max: [1, 0]
# CHECK-NEXT: [replica 7] g1_2_mean: [0.5, 0]
# CHECK-NEXT: [replica 7] g1_4_add: [0]
# CHECK-NEXT: [replica 7] g1_4_max: [0]
# CHECK-NEXT: [replica 7] g1_4_mean: [0]
# CHECK-NEXT: [replica 7] g1_8_add: [0]
# CHECK-NEXT: [replica 7] g1_8_max: [0]
# CHECK-NEXT: [replica 7] g1_8_mean: [0]
# CHECK-NEXT: [replica 7] g2_4_add: [0]
# CHECK-NEXT: [replica 7] g2_4_max: [0]
# CHECK-NEXT: [replica 7] g2_4_mean: [0]
# CHECK-NEXT: [replica 7] g4_2_add: [4, 0]
# CHECK-NEXT: [replica 7] g4_2_max: [4, 0]
# CHECK-NEXT: [replica 7] g4_2_mean: [2, 0]
# CHECK-NEXT: [replica 7] g8_1_add: [8, 1, 0]
# CHECK-NEXT: [replica 7] g8_1_max: [8, 1, 0]
# CHECK-NEXT: [replica 7] g8_1_mean: [8, 1, 0]
