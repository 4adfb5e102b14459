# replicated_all_reduce_ overwrites its operand in every replica: every member
# reads every input before any is overwritten, whatever the thread count.
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
ir {replication = 4}
main {
  var %w : f32[3] = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]] {replica_grouping = (1, 1)}
  replicated_all_reduce_ %w {op = add, group = (1, 2)}
  replicated_all_reduce_ %w {op = mean}
}
run
print %w
# (1+4, 2+5, 3+6) twice and (7+10, ...) twice, then the mean of those four.
# CHECK: %w: f32[4,3] = {{\[\[}}11, 13, 15], [11, 13, 15], [11, 13, 15], [11, 13, 15]]
