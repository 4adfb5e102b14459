// `pir` / `pir repl [FILE]` (tools.md §5). This file defines only replCommand,
// so that the REPL library (repl/repl.cpp) stays usable on its own.
#include <unistd.h>

#include <iostream>

#include "repl/commands.h"
#include "repl/repl.h"
#include "pir/tool.h"

namespace pir::cli {

int replCommand(const ReplOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  // One process only (decisions.md "Replicas"): under mpirun every process would
  // read the same terminal.
  if (api::processCount() > 1) {
    err << "pir: error: the REPL runs in one process only; under mpirun use 'pir run FILE'\n";
    return 2;
  }
  ReplRunOptions run;
  run.file = options.file;
  run.context.maxSteps = options.maxSteps;
  run.context.warnings = options.warnings;
  if (options.previewSteps) run.preview.maxSteps = options.previewSteps;
  // Line editing needs the real terminal: only when reading the process's stdin.
  run.interactive = &in == &std::cin && ::isatty(STDIN_FILENO) == 1;
  if (run.interactive) run.historyPath = defaultHistoryPath();
  return runRepl(run, in, out, err);
}

}  // namespace pir::cli
