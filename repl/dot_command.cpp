// `pir dot FILE [--graph=@g] [-o OUT]` (tools.md §1): thin over the public API
// (api::Module::dot). run, disasm and profile live in repl/run_command.cpp.
#include <algorithm>
#include <ostream>

#include "repl/commands.h"

namespace pir::cli {

int dotCommand(const DotOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  api::Context context;
  int status = 0;
  std::optional<api::Module> module = parseProgram(options.file, in, context, err, status);
  if (!module) return status;
  if (options.graph && *options.graph != "main") {
    const std::vector<std::string> graphs = module->graphNames();
    if (std::find(graphs.begin(), graphs.end(), *options.graph) == graphs.end()) {
      err << "pir: error: no graph @" << *options.graph << " in " << options.file << '\n';
      return 2;
    }
  }
  api::Result<std::string> text = module->dot(options.graph.value_or(""));
  if (!text) {
    err << text.error();
    return 1;
  }
  if (options.output) return writeFileAtomically(*options.output, *text, err) ? 0 : 2;
  out << *text;
  out.flush();
  return 0;
}

}  // namespace pir::cli
