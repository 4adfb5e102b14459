// The Open MPI backend of the Communicator (vm/communicator.h). Built only when
// CMake finds MPI (PIR_HAVE_MPI); otherwise makeMpiCommunicator explains that
// this build cannot run under mpirun.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>

#include "vm/communicator.h"

namespace pir::vm {

// Initialises MPI; null (with `error` set) if that is impossible.
std::unique_ptr<Communicator> makeMpiCommunicator(int& argc, char**& argv, std::string& error);
// Finalises MPI (if initialised); after a lost peer, leaves without waiting for it.
void finishMpi(int status);

}  // namespace pir::vm
