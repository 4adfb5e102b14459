// `pir run FILE [--passes=LIST] [--trace] [--no-fuse] [--threads=N] [--feed N=F] [--save N=F]` and
// `pir disasm FILE`
// (tools.md §1): thin over frontend/builder.h, passes and vm/session.h, joined
// by the SessionDriver (repl/session_driver.h).
#include <algorithm>
#include <istream>
#include <sstream>
#include <ostream>

#include "frontend/builder.h"
#include "frontend/lexical.h"
#include "repl/commands.h"
#include "repl/feed_save.h"
#include "repl/run_counter.h"
#include "repl/session_driver.h"
#include "vm/session.h"

namespace pir::cli {

SessionDriver::SessionDriver(Module& source, vm::Session& session, DiagnosticEngine& diags,
                             std::vector<std::string> passes, bool verifyEach, const std::set<std::string>* mainNamesRead)
    : source_(source),
      session_(session),
      diags_(diags),
      passes_(std::move(passes)),
      verifyEach_(verifyEach),
      mainNamesRead_(mainNamesRead) {}

void SessionDriver::command(const SessionCommand& cmd) {
  sawCommand_ = true;
  syncProgram();
  session_.command(cmd);
}

void SessionDriver::finish() {
  if (sawCommand_) return;
  syncProgram();
  session_.runDefault();
}

// Points the session at a transformed copy when the source changed.
void SessionDriver::syncProgram() {
  if (passes_.empty()) return;
  if (current_ && builtFrom_ == source_.generation) return;
  std::unique_ptr<Module> next = source_.clone();
  if (!runPasses(*next, passes_, diags_, verifyEach_, nullptr, mainNamesRead_))
    throw CompileError({Severity::Error, {}, "the pass pipeline failed", {}});  // already reported
  session_.setModule(*next);
  // The previous copy stays alive until the session has recompiled from the new one.
  previous_ = std::move(current_);
  current_ = std::move(next);
  builtFrom_ = source_.generation;
}

int runCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  const uint32_t file = loadSource(options.file, in, sources, err);
  if (file == 0) return 2;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  diags.setWarningPolicy(options.warnings);
  Module module;
  vm::SessionOptions sessionOptions;
  sessionOptions.threads = options.threads;
  sessionOptions.maxSteps = options.maxSteps;
  sessionOptions.trace = options.trace ? &err : nullptr;
  // The script stops at its first error (runtime.md §8: exit status 1), so a failed
  // run needs no backup; and only main values a later command names are kept
  // (decisions.md "Run backups and snapshots").
  sessionOptions.restoreOnFailure = false;
  sessionOptions.keptMainNames = valueNamesReadByCommands(sources.buffer(file).text);
  for (const NamedPath& s : options.saves)  // --save %NAME or a bare NAME that may be a value
    if (!s.name.empty() && s.name[0] != '$') sessionOptions.keptMainNames->insert(s.name[0] == '%' ? s.name.substr(1) : s.name);
  sessionOptions.fuseElementwise = options.fuse;
  vm::Session session(module, diags, out, sessionOptions);
  SessionDriver driver(module, session, diags, options.passes, options.verifyEach, &*sessionOptions.keptMainNames);
  RunCounter counter(driver);
  CommandLineData data(counter, session, module, diags, options.feeds, options.saves);  // --feed, --save
  try {
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file), &data)) return 1;
    data.feedOnce();
    driver.finish();
    if ((options.profile || options.json || options.timeline) && diags.errorCount() == 0) {
      std::ostream* text = options.profile ? (options.profileToOutput ? &out : &err) : nullptr;
      if (!writeProfile(module, diags, text, counter.runs(), options, err, &session.branchExecutions(),
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
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file))) return 1;
    const std::set<std::string> namesRead = valueNamesReadByCommands(sources.buffer(file).text);
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
