// libFuzzer target: parse + verify + compile + run. Session commands run after
// the parse (as `pir run` does), through the lowering every session of the API
// compiles with (api/pass_runner.h lowerForCompile), with small budgets (fuzz_common.h):
// every input ends in a clean run or a located diagnostic, never a crash, hang,
// leak or sanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>
#include <sstream>
#include <string>

#include "api/pass_runner.h"
#include "api/session_driver.h"
#include "frontend/builder.h"
#include "fuzz/fuzz_common.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "vm/session.h"

namespace {

// Forwards session commands to the session within the budgets: replication at
// most kMaxReplicas (else the commands are skipped), `run N` at most kMaxRuns.
class BoundedSession {
 public:
  BoundedSession(pir::Module& m, pir::vm::Session& s, pir::DiagnosticEngine& diags) : m_(m), driver_(m, s, diags) {}
  // failure() at the first command that fails (reported): the rest do not run.
  pir::LogicalResult run(const pir::Script& script) {
    for (const pir::ScriptCommand& c : script) {
      sawCommand = true;
      if (!withinBudget()) continue;
      if (c.command.kind == pir::SessionCommand::Kind::Run && c.command.count > pir::fuzz::kMaxRuns) continue;
      if (driver_.command(c).failed()) return pir::failure();
    }
    driver_.release();
    return pir::success();
  }
  bool withinBudget() const { return m_.options.replication <= pir::fuzz::kMaxReplicas; }
  bool sawCommand = false;

 private:
  pir::Module& m_;
  pir::SessionDriver driver_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = pir::fuzz::workDir();
  std::string text(reinterpret_cast<const char*>(data), size);
  if (pir::fuzz::namesOutsidePaths(text)) return -1;  // not added to the corpus
  pir::SourceManager sources;
  uint32_t file = sources.add("<fuzz>", text);
  pir::DiagnosticEngine diags(sources);
  std::ostringstream sink, out;
  diags.setStream(&sink);
  pir::Module module;
  pir::vm::SessionOptions options = pir::fuzz::boundedSessionOptions();
  options.lowering = &pir::lowerForCompile;
  pir::vm::Session session(module, diags, out, options);
  BoundedSession bounded(module, session, diags);
  pir::Script script;
  bool ok = false, refused = false;
  try {
    ok = pir::buildFromBuffer(module, diags, file, dir, &script).succeeded() && bounded.run(script).succeeded() &&
         (bounded.sawCommand || !bounded.withinBudget() || session.runDefault().succeeded());
  } catch (const std::bad_alloc&) {
    // A refusal of the host-memory budget outside a kernel (cloning the program for a
    // command, parsing) leaves the driver as an exception, which the public API
    // (api::Session) reports as "out of memory": a reported failure, not a crash.
    refused = true;
  }
  if (!ok && !refused && diags.errorCount() == 0) __builtin_trap();  // every failure is reported with a message
  if (text.find("save") != std::string::npos) pir::fuzz::clearWorkDir();
  return 0;
}
