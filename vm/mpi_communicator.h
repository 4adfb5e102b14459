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
// Agrees with the other processes on how the job ends, then finalises MPI (if
// initialised). Returns `status`, or does not return when another process
// failed (see Communicator's "ending" contract). After a lost peer, leaves
// without waiting for it.
int finishMpi(int status);

}  // namespace pir::vm
