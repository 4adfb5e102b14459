# replicated_all_gather (output_shape = concat) over every grouping of 8 replicas.
# Expected values: the reference model of collectives (members in replica order).
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
# RUN: %pir run --threads=3 %s | FileCheck %s
ir {replication = 8}
main {
  var %x : f32[3] = [[1, 0, 7], [2, 1, 6], [3, 2, 5], [4, 0, 4], [5, 1, 3], [6, 2, 2], [7, 0, 1], [8, 1, 0]] {replica_grouping = (1, 1)}
  %g1_1 = replicated_all_gather %x {group = (1, 1), output_shape = concat}
  print_tensor %g1_1
  %g1_2 = replicated_all_gather %x {group = (1, 2), output_shape = concat}
  print_tensor %g1_2
  %g1_4 = replicated_all_gather %x {group = (1, 4), output_shape = concat}
  print_tensor %g1_4
  %g1_8 = replicated_all_gather %x {group = (1, 8), output_shape = concat}
  print_tensor %g1_8
  %g2_4 = replicated_all_gather %x {group = (2, 4), output_shape = concat}
  print_tensor %g2_4
  %g4_2 = replicated_all_gather %x {group = (4, 2), output_shape = concat}
  print_tensor %g4_2
  %g8_1 = replicated_all_gather %x {group = (8, 1), output_shape = concat}
  print_tensor %g8_1
}
run
# CHECK: [replica 0] g1_1: [1, 0, 7]
# CHECK-NEXT: [replica 0] g1_2: [1, 0, 7, 2, 1, 6]
# CHECK-NEXT: [replica 0] g1_4: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4]
# CHECK-NEXT: [replica 0] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 0] g2_4: [1, 0, 7, 3, 2, 5, 5, 1, 3, 7, 0, 1]
# CHECK-NEXT: [replica 0] g4_2: [1, 0, 7, 5, 1, 3]
# CHECK-NEXT: [replica 0] g8_1: [1, 0, 7]
# CHECK-NEXT: [replica 1] g1_1: [2, 1, 6]
# CHECK-NEXT: [replica 1] g1_2: [1, 0, 7, 2, 1, 6]
# CHECK-NEXT: [replica 1] g1_4: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4]
# CHECK-NEXT: [replica 1] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 1] g2_4: [2, 1, 6, 4, 0, 4, 6, 2, 2, 8, 1, 0]
# CHECK-NEXT: [replica 1] g4_2: [2, 1, 6, 6, 2, 2]
# CHECK-NEXT: [replica 1] g8_1: [2, 1, 6]
# CHECK-NEXT: [replica 2] g1_1: [3, 2, 5]
# CHECK-NEXT: [replica 2] g1_2: [3, 2, 5, 4, 0, 4]
# CHECK-NEXT: [replica 2] g1_4: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4]
# CHECK-NEXT: [replica 2] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 2] g2_4: [1, 0, 7, 3, 2, 5, 5, 1, 3, 7, 0, 1]
# CHECK-NEXT: [replica 2] g4_2: [3, 2, 5, 7, 0, 1]
# CHECK-NEXT: [replica 2] g8_1: [3, 2, 5]
# CHECK-NEXT: [replica 3] g1_1: [4, 0, 4]
# CHECK-NEXT: [replica 3] g1_2: [3, 2, 5, 4, 0, 4]
# CHECK-NEXT: [replica 3] g1_4: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4]
# CHECK-NEXT: [replica 3] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 3] g2_4: [2, 1, 6, 4, 0, 4, 6, 2, 2, 8, 1, 0]
# CHECK-NEXT: [replica 3] g4_2: [4, 0, 4, 8, 1, 0]
# CHECK-NEXT: [replica 3] g8_1: [4, 0, 4]
# CHECK-NEXT: [replica 4] g1_1: [5, 1, 3]
# CHECK-NEXT: [replica 4] g1_2: [5, 1, 3, 6, 2, 2]
# CHECK-NEXT: [replica 4] g1_4: [5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 4] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 4] g2_4: [1, 0, 7, 3, 2, 5, 5, 1, 3, 7, 0, 1]
# CHECK-NEXT: [replica 4] g4_2: [1, 0, 7, 5, 1, 3]
# CHECK-NEXT: [replica 4] g8_1: [5, 1, 3]
# CHECK-NEXT: [replica 5] g1_1: [6, 2, 2]
# CHECK-NEXT: [replica 5] g1_2: [5, 1, 3, 6, 2, 2]
# CHECK-NEXT: [replica 5] g1_4: [5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 5] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 5] g2_4: [2, 1, 6, 4, 0, 4, 6, 2, 2, 8, 1, 0]
# CHECK-NEXT: [replica 5] g4_2: [2, 1, 6, 6, 2, 2]
# CHECK-NEXT: [replica 5] g8_1: [6, 2, 2]
# CHECK-NEXT: [replica 6] g1_1: [7, 0, 1]
# CHECK-NEXT: [replica 6] g1_2: [7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 6] g1_4: [5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 6] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 6] g2_4: [1, 0, 7, 3, 2, 5, 5, 1, 3, 7, 0, 1]
# CHECK-NEXT: [replica 6] g4_2: [3, 2, 5, 7, 0, 1]
# CHECK-NEXT: [replica 6] g8_1: [7, 0, 1]
# CHECK-NEXT: [replica 7] g1_1: [8, 1, 0]
# CHECK-NEXT: [replica 7] g1_2: [7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 7] g1_4: [5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 7] g1_8: [1, 0, 7, 2, 1, 6, 3, 2, 5, 4, 0, 4, 5, 1, 3, 6, 2, 2, 7, 0, 1, 8, 1, 0]
# CHECK-NEXT: [replica 7] g2_4: [2, 1, 6, 4, 0, 4, 6, 2, 2, 8, 1, 0]
# CHECK-NEXT: [replica 7] g4_2: [4, 0, 4, 8, 1, 0]
# CHECK-NEXT: [replica 7] g8_1: [8, 1, 0]
