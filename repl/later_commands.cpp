// Commands of tools.md that belong to later issues: `dot`, `profile` (the device
// cost model of runtime.md §7) and the passes. Until they land, the commands say
// so with exit status 2 and no pass is available; each is replaced here by the
// real library call when its issue is done. (run, disasm and repl live in
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

// No pass is available yet (passes/ is a later issue); the CLI only calls
// runPasses with names from availablePasses(), so a non-empty list never reaches it.
std::vector<std::string> availablePasses() { return {}; }

bool runPasses(Module&, const std::vector<std::string>& passes, DiagnosticEngine&, bool, std::ostream*) {
  return passes.empty();
}

}  // namespace pir::cli
