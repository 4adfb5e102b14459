# Input of tests/mpi_faults.sh: `print` after a run under MPI gathers every
# replica's state into each process (this process's and everyone's copy at once,
# 6 MiB here), charged to the host-memory budget.
ir {replication = 2}
main {
  var %w : f32[262144] = 1
  %y = add %w, %w
}
run
print %y
