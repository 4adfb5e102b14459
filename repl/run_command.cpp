// `pir run FILE [--passes=LIST] [--trace] [--no-fuse] [--threads=N] [--feed N=F] [--save N=F]` and
// `pir disasm FILE`
// (tools.md §1): thin over frontend/builder.h, passes and vm/session.h, joined
// by the SessionDriver (api/session_driver.h): the file is parsed and verified
// whole, then its commands run.
#include <algorithm>
#include <istream>
#include <sstream>
#include <ostream>

#include "frontend/builder.h"
#include "repl/commands.h"
#include "repl/feed_save.h"
#include "api/session_driver.h"
#include "vm/session.h"

namespace pir::cli {

int runCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  const uint32_t file = loadSource(options.file, in, sources, err);
  if (file == 0) return 2;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  diags.setWarningPolicy(options.warnings);
  Module module;
  Script script;
  if (!buildFromBuffer(module, diags, file, baseDirOf(options.file), &script, {.autodiff = autodiffTransform()}))
    return 1;
  vm::SessionOptions sessionOptions;
  sessionOptions.threads = options.threads;
  sessionOptions.maxSteps = options.maxSteps;
  sessionOptions.trace = options.trace ? &err : nullptr;
  // The script stops at its first error (runtime.md §8: exit status 1), so a failed
  // run needs no backup; and only main values a command reads are kept
  // (decisions.md "Run backups and snapshots").
  sessionOptions.restoreOnFailure = false;
  sessionOptions.keptMainNames = mainValuesReadBy(script);
  for (const NamedPath& s : options.saves)  // --save %NAME or a bare NAME that may be a value
    if (!s.name.empty() && s.name[0] != '$') sessionOptions.keptMainNames->insert(s.name[0] == '%' ? s.name.substr(1) : s.name);
  sessionOptions.fuseElementwise = options.fuse;
  vm::Session session(module, diags, out, sessionOptions);
  SessionDriver driver(module, session, diags, options.passes, options.verifyEach, &*sessionOptions.keptMainNames);
  CommandLineData data(session, module, diags, options.feeds, options.saves);  // --feed, --save
  try {
    for (const ScriptCommand& c : script) {
      data.beforeCommand(c.command);
      driver.command(c);
    }
    data.feedOnce();
    driver.finish();
    if ((options.profile || options.json || options.timeline) && diags.errorCount() == 0) {
      std::ostream* text = options.profile ? (options.profileToOutput ? &out : &err) : nullptr;
      if (!writeProfile(module, diags, text, driver.runs(), options, err, &session.branchExecutions(),
                        &*sessionOptions.keptMainNames))
        return 2;
    }
    data.saveAll();
    // A file without session commands prints its d2h streams; one with neither
    // shows nothing at all, which a newcomer reads as a failure.
    const bool defaultRunPrints =
        !driver.sawCommand() && std::any_of(module.resources.begin(), module.resources.end(), [](const auto& r) {
          return r->kind == Resource::Kind::D2H;
        });
    if (diags.errorCount() == 0 && !options.profileToOutput && !data.showsValues() && !defaultRunPrints)
      err << "pir: note: the run printed nothing: add `print %NAME` or `print $STREAM` after `run`, or pass\n"
             "  --save NAME=OUT.npy (a file without session commands prints its d2h streams; `pir help print`)\n";
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
    Script script;
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file), &script, {.autodiff = autodiffTransform()}))
      return 1;
    // The file's own commands read these main values: passes keep them.
    const std::set<std::string> namesRead = mainValuesReadBy(script);
    if (!options.passes.empty() && !runPasses(module, options.passes, diags, false, nullptr, &namesRead)) return 1;
    std::ostringstream sink;  // a disassembly runs nothing; nothing is printed
    vm::Session session(module, diags, sink, vm::SessionOptions{.fuseElementwise = options.fuse});
    out << session.disassemble(nullptr);
  } catch (const CompileError&) {
    return 1;
  }
  return diags.errorCount() > 0 ? 1 : 0;
}

}  // namespace pir::cli
