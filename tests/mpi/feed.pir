# Input of tests/mpi_faults.sh: a fed stream reduced over two replicas.
ir {replication = 2}
h2d $x : f32[2]
main {
  %v = host_load $x
  %s = replicated_all_reduce %v {op = add, group = (1, 2)}
  print_tensor %s
}
