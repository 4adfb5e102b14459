# Input of tests/mpi_faults.sh: a program error every process finds before
# running anything.
ir {replication = 4}
main {
  %x = add %y, %y
}
run
