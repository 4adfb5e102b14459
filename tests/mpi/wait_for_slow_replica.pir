# Input of tests/mpi_faults.sh: replica 0 reaches the all_reduce at once and
# waits there; replica 1 (MPI rank 1) computes for hours first.
ir {replication = 2}
graph @double(%x: f32[2]) -> (f32[2]) {
  %y = add %x, %x
  return %y
}
graph @slow(%x: f32[2]) -> (f32[2]) {
  %y = repeat @double(%x) {count = 1000000000000}
  return %y
}
graph @fast(%x: f32[2]) -> (f32[2]) {
  return %x
}
main {
  var %c : bool[] = [0, 1] {replica_grouping = (1, 1)}
  var %x : f32[2] = [1, 2]
  %y = conditional %c, @slow(%x), @fast(%x)
  %s = replicated_all_reduce %y {op = add, group = (1, 2)}
  print_tensor %s
}
run
