# replicated_slice over every grouping of 8 replicas.
# Expected values: the reference model of collectives (members in replica order).
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
# RUN: %pir run --threads=3 %s | FileCheck %s
ir {replication = 8}
main {
  var %x : i32[8] = [[0, 1, 2, 3, 4, 5, 6, 7], [10, 11, 12, 13, 14, 15, 16, 17], [20, 21, 22, 23, 24, 25, 26, 27], [30, 31, 32, 33, 34, 35, 36, 37], [40, 41, 42, 43, 44, 45, 46, 47], [50, 51, 52, 53, 54, 55, 56, 57], [60, 61, 62, 63, 64, 65, 66, 67], [70, 71, 72, 73, 74, 75, 76, 77]] {replica_grouping = (1, 1)}
  %g1_1 = replicated_slice %x {group = (1, 1)}
  print_tensor %g1_1
  %g1_2 = replicated_slice %x {group = (1, 2)}
  print_tensor %g1_2
  %g1_4 = replicated_slice %x {group = (1, 4)}
  print_tensor %g1_4
  %g1_8 = replicated_slice %x {group = (1, 8)}
  print_tensor %g1_8
  %g2_4 = replicated_slice %x {group = (2, 4)}
  print_tensor %g2_4
  %g4_2 = replicated_slice %x {group = (4, 2)}
  print_tensor %g4_2
  %g8_1 = replicated_slice %x {group = (8, 1)}
  print_tensor %g8_1
}
run
# CHECK: [replica 0] g1_1: [0, 1, 2, 3, 4, 5, 6, 7]
# CHECK-NEXT: [replica 0] g1_2: [0, 1, 2, 3]
# CHECK-NEXT: [replica 0] g1_4: [0, 1]
# CHECK-NEXT: [replica 0] g1_8: [0]
# CHECK-NEXT: [replica 0] g2_4: [0, 1]
# CHECK-NEXT: [replica 0] g4_2: [0, 1, 2, 3]
# CHECK-NEXT: [replica 0] g8_1: [0, 1, 2, 3, 4, 5, 6, 7]
# CHECK-NEXT: [replica 1] g1_1: [10, 11, 12, 13, 14, 15, 16, 17]
# CHECK-NEXT: [replica 1] g1_2: [14, 15, 16, 17]
# CHECK-NEXT: [replica 1] g1_4: [12, 13]
# CHECK-NEXT: [replica 1] g1_8: [11]
# CHECK-NEXT: [replica 1] g2_4: [10, 11]
# CHECK-NEXT: [replica 1] g4_2: [10, 11, 12, 13]
# CHECK-NEXT: [replica 1] g8_1: [10, 11, 12, 13, 14, 15, 16, 17]
# CHECK-NEXT: [replica 2] g1_1: [20, 21, 22, 23, 24, 25, 26, 27]
# CHECK-NEXT: [replica 2] g1_2: [20, 21, 22, 23]
# CHECK-NEXT: [replica 2] g1_4: [24, 25]
# CHECK-NEXT: [replica 2] g1_8: [22]
# CHECK-NEXT: [replica 2] g2_4: [22, 23]
# CHECK-NEXT: [replica 2] g4_2: [20, 21, 22, 23]
# CHECK-NEXT: [replica 2] g8_1: [20, 21, 22, 23, 24, 25, 26, 27]
# CHECK-NEXT: [replica 3] g1_1: [30, 31, 32, 33, 34, 35, 36, 37]
# CHECK-NEXT: [replica 3] g1_2: [34, 35, 36, 37]
# CHECK-NEXT: [replica 3] g1_4: [36, 37]
# CHECK-NEXT: [replica 3] g1_8: [33]
# CHECK-NEXT: [replica 3] g2_4: [32, 33]
# CHECK-NEXT: [replica 3] g4_2: [30, 31, 32, 33]
# CHECK-NEXT: [replica 3] g8_1: [30, 31, 32, 33, 34, 35, 36, 37]
# CHECK-NEXT: [replica 4] g1_1: [40, 41, 42, 43, 44, 45, 46, 47]
# CHECK-NEXT: [replica 4] g1_2: [40, 41, 42, 43]
# CHECK-NEXT: [replica 4] g1_4: [40, 41]
# CHECK-NEXT: [replica 4] g1_8: [44]
# CHECK-NEXT: [replica 4] g2_4: [44, 45]
# CHECK-NEXT: [replica 4] g4_2: [44, 45, 46, 47]
# CHECK-NEXT: [replica 4] g8_1: [40, 41, 42, 43, 44, 45, 46, 47]
# CHECK-NEXT: [replica 5] g1_1: [50, 51, 52, 53, 54, 55, 56, 57]
# CHECK-NEXT: [replica 5] g1_2: [54, 55, 56, 57]
# CHECK-NEXT: [replica 5] g1_4: [52, 53]
# CHECK-NEXT: [replica 5] g1_8: [55]
# CHECK-NEXT: [replica 5] g2_4: [54, 55]
# CHECK-NEXT: [replica 5] g4_2: [54, 55, 56, 57]
# CHECK-NEXT: [replica 5] g8_1: [50, 51, 52, 53, 54, 55, 56, 57]
# CHECK-NEXT: [replica 6] g1_1: [60, 61, 62, 63, 64, 65, 66, 67]
# CHECK-NEXT: [replica 6] g1_2: [60, 61, 62, 63]
# CHECK-NEXT: [replica 6] g1_4: [64, 65]
# CHECK-NEXT: [replica 6] g1_8: [66]
# CHECK-NEXT: [replica 6] g2_4: [66, 67]
# CHECK-NEXT: [replica 6] g4_2: [64, 65, 66, 67]
# CHECK-NEXT: [replica 6] g8_1: [60, 61, 62, 63, 64, 65, 66, 67]
# CHECK-NEXT: [replica 7] g1_1: [70, 71, 72, 73, 74, 75, 76, 77]
# CHECK-NEXT: [replica 7] g1_2: [74, 75, 76, 77]
# CHECK-NEXT: [replica 7] g1_4: [76, 77]
# CHECK-NEXT: [replica 7] g1_8: [77]
# CHECK-NEXT: [replica 7] g2_4: [76, 77]
# CHECK-NEXT: [replica 7] g4_2: [74, 75, 76, 77]
# CHECK-NEXT: [replica 7] g8_1: [70, 71, 72, 73, 74, 75, 76, 77]
