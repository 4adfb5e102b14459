# A replica that fails before a collective is the error reported; its group's
# other members stop at the collective instead of waiting forever.
# RUN: not %pir run %s 2>&1 | FileCheck %s
# RUN: not %pir run --threads=1 %s 2>&1 | FileCheck %s
# CHECK: {{.*}}failed_member.pir:[[#@LINE+5]]:8: error: div: integer division by zero (replica 1)
ir {replication = 2}
main {
  var %d : i32[] = [1, 0] {replica_grouping = (1, 1)}
  var %x : i32[2] = [6, 8]
  %q = div %x, %d
  %s = replicated_all_reduce %q {op = add}
}
run
