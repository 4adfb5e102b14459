# Input of tests/mpi_faults.sh: one all_reduce over two replicas of a loaded
# variable (the script makes variants: another reduce op, shape, an extra
# collective, a second run).
ir {replication = 2}
main {
  var %w : f32[2] = load("w.npy")
  %s = replicated_all_reduce %w {op = max, group = (1, 2)}
  print_tensor %s
}
run
