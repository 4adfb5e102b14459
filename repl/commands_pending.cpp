// TEMPORARY definitions of the commands and pass hooks that other engineers
// provide (repl/commands.h) and that have not landed yet. The lead replaces
// this file when they do. (run, disasm and repl already live in
// repl/run_command.cpp and repl/repl_command.cpp.)
#include <ostream>

#include "repl/commands.h"

namespace pir::cli {

static int notAvailable(const char* command, std::ostream& err) {
  err << "pir: error: '" << command << "' is not available in this build\n";
  return 2;
}

int dotCommand(const DotOptions&, std::istream&, std::ostream&, std::ostream& err) { return notAvailable("dot", err); }
int profileCommand(const ProfileOptions&, std::istream&, std::ostream&, std::ostream& err) {
  return notAvailable("profile", err);
}

// The pass manager (passes/) has not landed: no pass is available, and the CLI
// only calls runPasses with names from availablePasses().
std::vector<std::string> availablePasses() { return {}; }

bool runPasses(Module&, const std::vector<std::string>& passes, DiagnosticEngine&, bool, std::ostream*) {
  return passes.empty();
}

}  // namespace pir::cli
