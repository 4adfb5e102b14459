// `pir run FILE [--passes=LIST] [--trace] [--threads=N]` and `pir disasm FILE`
// (tools.md §1): thin over frontend/builder.h and vm/session.h.
//
// Without passes the session commands run as the builder reads them, so a
// command that follows more statements runs the grown program (language.md §11).
// With --passes the whole file is built first, the passes run, then the
// commands run in order on the transformed program.
#include <istream>
#include <sstream>
#include <ostream>

#include "frontend/builder.h"
#include "repl/commands.h"
#include "vm/session.h"

namespace pir::cli {

int runCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  const uint32_t file = loadSource(options.file, in, sources, err);
  if (file == 0) return 2;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  Module module;
  vm::SessionOptions sessionOptions;
  sessionOptions.threads = options.threads;
  sessionOptions.trace = options.trace ? &err : nullptr;
  vm::Session session(module, diags, out, sessionOptions);
  const bool live = options.passes.empty();
  try {
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file), live ? &session : nullptr)) return 1;
    if (!live) {
      if (!runPasses(module, options.passes, diags, options.verifyEach, nullptr)) return 1;
      for (const SessionCommand& cmd : module.commands) session.command(cmd);
    }
    if (module.commands.empty()) session.runDefault();
  } catch (const CompileError&) {
    return 1;  // already reported
  }
  out.flush();
  return diags.errorCount() > 0 ? 1 : 0;
}

int disasmCommand(const DisasmOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  const uint32_t file = loadSource(options.file, in, sources, err);
  if (file == 0) return 2;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  Module module;
  try {
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file))) return 1;
    if (!options.passes.empty() && !runPasses(module, options.passes, diags, false, nullptr)) return 1;
    std::ostringstream sink;  // a disassembly runs nothing; nothing is printed
    vm::Session session(module, diags, sink);
    out << session.disassemble(nullptr);
  } catch (const CompileError&) {
    return 1;
  }
  return diags.errorCount() > 0 ? 1 : 0;
}

}  // namespace pir::cli
