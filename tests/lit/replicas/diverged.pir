# Replicas whose control flow reaches different collectives fail at the first
# one (no hang), at its location, with the replica index.
# RUN: not %pir run %s 2>&1 | FileCheck %s
# RUN: not %pir run --threads=1 %s 2>&1 | FileCheck %s
# CHECK: {{.*}}diverged.pir:[[#@LINE+3]]:8: error: replicated_all_reduce: replica 1 of the group reached a different collective (replica 0)
ir {replication = 2}
graph @left(%x: f32[2]) -> (f32[2]) {
  %y = replicated_all_reduce %x {op = add}
  return %y
}
graph @right(%x: f32[2]) -> (f32[2]) {
  %y = replicated_all_reduce %x {op = max}
  return %y
}
main {
  var %c : bool[] = [1, 0] {replica_grouping = (1, 1)}
  var %x : f32[2] = [1, 2]
  %y = conditional %c, @left(%x), @right(%x)
}
run
