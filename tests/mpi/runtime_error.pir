# Input of tests/mpi_faults.sh: every replica fails at the same op (an ordinary
# error, reported once by rank 0).
ir {replication = 2}
h2d $x : f32[2]
main {
  var %w : f32[2] = [1, 2]
  %s = replicated_all_reduce %w {op = add, group = (1, 2)}
  %v = host_load $x
}
run
