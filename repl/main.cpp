#include "repl/allocator.h"
#include "repl/cli.h"
#include "vm/communicator.h"

int main(int argc, char** argv) {
  pir::configureAllocator();
  // Under mpirun: MPI up, every rank but 0 silent (vm/communicator.h).
  if (!pir::vm::initProcessGroup(argc, argv)) return 1;
  const int status = pir::cli::main(argc, argv);
  pir::vm::finishProcessGroup(status);
  return status;
}
