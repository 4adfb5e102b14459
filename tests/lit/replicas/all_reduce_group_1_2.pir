# replicated_all_reduce, every reduce op, group = (1, 2) over 8 replicas.
# Expected values: the reference model of collectives (members in replica order).
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
# RUN: %pir run --threads=3 %s | FileCheck %s
ir {replication = 8}
main {
  var %x : f32[3] = [[1, 0, 7], [2, 1, 6], [3, 2, 5], [4, 0, 4], [5, 1, 3], [6, 2, 2], [7, 0, 1], [8, 1, 0]] {replica_grouping = (1, 1)}
  var %b : bool[3] = [[1, 0, 1], [1, 1, 1], [1, 1, 1], [1, 0, 1], [1, 1, 1], [1, 1, 1], [1, 0, 1], [1, 1, 0]] {replica_grouping = (1, 1)}
  %add = replicated_all_reduce %x {op = add, group = (1, 2)}
  print_tensor %add
  %mean = replicated_all_reduce %x {op = mean, group = (1, 2)}
  print_tensor %mean
  %mul = replicated_all_reduce %x {op = mul, group = (1, 2)}
  print_tensor %mul
  %min = replicated_all_reduce %x {op = min, group = (1, 2)}
  print_tensor %min
  %max = replicated_all_reduce %x {op = max, group = (1, 2)}
  print_tensor %max
  %and = replicated_all_reduce %b {op = and, group = (1, 2)}
  print_tensor %and
  %or = replicated_all_reduce %b {op = or, group = (1, 2)}
  print_tensor %or
  %square_add = replicated_all_reduce %x {op = square_add, group = (1, 2)}
  print_tensor %square_add
}
run
# CHECK: [replica 0] add: [3, 1, 13]
# CHECK-NEXT: [replica 0] mean: [1.5, 0.5, 6.5]
# CHECK-NEXT: [replica 0] mul: [2, 0, 42]
# CHECK-NEXT: [replica 0] min: [1, 0, 6]
# CHECK-NEXT: [replica 0] max: [2, 1, 7]
# CHECK-NEXT: [replica 0] and: [true, false, true]
# CHECK-NEXT: [replica 0] or: [true, true, true]
# CHECK-NEXT: [replica 0] square_add: [5, 1, 85]
# CHECK-NEXT: [replica 1] add: [3, 1, 13]
# CHECK-NEXT: [replica 1] mean: [1.5, 0.5, 6.5]
# CHECK-NEXT: [replica 1] mul: [2, 0, 42]
# CHECK-NEXT: [replica 1] min: [1, 0, 6]
# CHECK-NEXT: [replica 1] max: [2, 1, 7]
# CHECK-NEXT: [replica 1] and: [true, false, true]
# CHECK-NEXT: [replica 1] or: [true, true, true]
# CHECK-NEXT: [replica 1] square_add: [5, 1, 85]
# CHECK-NEXT: [replica 2] add: [7, 2, 9]
# CHECK-NEXT: [replica 2] mean: [3.5, 1, 4.5]
# CHECK-NEXT: [replica 2] mul: [12, 0, 20]
# CHECK-NEXT: [replica 2] min: [3, 0, 4]
# CHECK-NEXT: [replica 2] max: [4, 2, 5]
# CHECK-NEXT: [replica 2] and: [true, false, true]
# CHECK-NEXT: [replica 2] or: [true, true, true]
# CHECK-NEXT: [replica 2] square_add: [25, 4, 41]
# CHECK-NEXT: [replica 3] add: [7, 2, 9]
# CHECK-NEXT: [replica 3] mean: [3.5, 1, 4.5]
# CHECK-NEXT: [replica 3] mul: [12, 0, 20]
# CHECK-NEXT: [replica 3] min: [3, 0, 4]
# CHECK-NEXT: [replica 3] max: [4, 2, 5]
# CHECK-NEXT: [replica 3] and: [true, false, true]
# CHECK-NEXT: [replica 3] or: [true, true, true]
# CHECK-NEXT: [replica 3] square_add: [25, 4, 41]
# CHECK-NEXT: [replica 4] add: [11, 3, 5]
# CHECK-NEXT: [replica 4] mean: [5.5, 1.5, 2.5]
# CHECK-NEXT: [replica 4] mul: [30, 2, 6]
# CHECK-NEXT: [replica 4] min: [5, 1, 2]
# CHECK-NEXT: [replica 4] max: [6, 2, 3]
# CHECK-NEXT: [replica 4] and: [true, true, true]
# CHECK-NEXT: [replica 4] or: [true, true, true]
# CHECK-NEXT: [replica 4] square_add: [61, 5, 13]
# CHECK-NEXT: [replica 5] add: [11, 3, 5]
# CHECK-NEXT: [replica 5] mean: [5.5, 1.5, 2.5]
# CHECK-NEXT: [replica 5] mul: [30, 2, 6]
# CHECK-NEXT: [replica 5] min: [5, 1, 2]
# CHECK-NEXT: [replica 5] max: [6, 2, 3]
# CHECK-NEXT: [replica 5] and: [true, true, true]
# CHECK-NEXT: [replica 5] or: [true, true, true]
# CHECK-NEXT: [replica 5] square_add: [61, 5, 13]
# CHECK-NEXT: [replica 6] add: [15, 1, 1]
# CHECK-NEXT: [replica 6] mean: [7.5, 0.5, 0.5]
# CHECK-NEXT: [replica 6] mul: [56, 0, 0]
# CHECK-NEXT: [replica 6] min: [7, 0, 0]
# CHECK-NEXT: [replica 6] max: [8, 1, 1]
# CHECK-NEXT: [replica 6] and: [true, false, false]
# CHECK-NEXT: [replica 6] or: [true, true, true]
# CHECK-NEXT: [replica 6] square_add: [113, 1, 1]
# CHECK-NEXT: [replica 7] add: [15, 1, 1]
# CHECK-NEXT: [replica 7] mean: [7.5, 0.5, 0.5]
# CHECK-NEXT: [replica 7] mul: [56, 0, 0]
# CHECK-NEXT: [replica 7] min: [7, 0, 0]
# CHECK-NEXT: [replica 7] max: [8, 1, 1]
# CHECK-NEXT: [replica 7] and: [true, false, false]
# CHECK-NEXT: [replica 7] or: [true, true, true]
# CHECK-NEXT: [replica 7] square_add: [113, 1, 1]
