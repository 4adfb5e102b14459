#include "vm/communicator.h"

#include <cstdlib>
#include <iostream>

#include "vm/mpi_communicator.h"

namespace pir::vm {

namespace {
std::unique_ptr<Communicator>& current() {
  static std::unique_ptr<Communicator> c = std::make_unique<Communicator>();
  return c;
}

// Started by Open MPI's mpirun (or another PMIx launcher) with more than one process.
bool launchedWithSeveralProcesses() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
    if (const char* s = std::getenv(var)) return std::atoi(s) > 1;
  return false;
}
}  // namespace

Communicator& processCommunicator() { return *current(); }

bool initProcessGroup(int& argc, char**& argv) {
  if (!launchedWithSeveralProcesses()) return true;
  std::string error;
  std::unique_ptr<Communicator> mpi = makeMpiCommunicator(argc, argv, error);
  if (!mpi) {
    std::cerr << "pir: " << error << "\n";
    return false;
  }
  current() = std::move(mpi);
  return true;
}

int finishProcessGroup(int status) { return finishMpi(status); }

}  // namespace pir::vm
