// The one way an internal invariant break (a bug in pir, never a fault of the
// input) is reported: internalError() throws InternalError. The code that runs
// a unit of work catches it with the other failures and reports it as an error
// of that work ("internal: pass 'X' failed: ..." in the pass manager, "error:
// ..." at a command), so the state is restored as for any failed command and
// the process goes on. Failures of the input are diagnostics
// (ir/diagnostics.h), never this.
#pragma once
#include <stdexcept>
#include <string>

namespace pir {

// A std::logic_error, so that handlers of precondition failures catch it.
struct InternalError : std::logic_error {
  using std::logic_error::logic_error;
};

[[noreturn]] void internalError(const std::string& what);

}  // namespace pir
