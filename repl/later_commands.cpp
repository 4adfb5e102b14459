// `pir dot`, the profile (`pir profile`, `run --profile`, REPL `:profile`) over the
// device library (device/). (run, disasm and repl live in repl/run_command.cpp
// and repl/repl_command.cpp; the passes' hooks in api/pass_runner.h.)
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "device/device_model.h"
#include "device/dot.h"
#include "device/merge_exchange.h"
#include "frontend/builder.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/pass_manager.h"
#include "repl/commands.h"
#include "api/session_driver.h"
#include "vm/session.h"
#include "vm/const_eval.h"

namespace pir::cli {

int dotCommand(const DotOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  const uint32_t file = loadSource(options.file, in, sources, err);
  if (file == 0) return 2;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  Module module;
  try {
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file), nullptr, {.autodiff = autodiffTransform()})) return 1;
  } catch (const CompileError&) {
    return 1;
  }
  if (diags.errorCount() > 0) return 1;
  const Graph* only = nullptr;
  if (options.graph) {
    only = *options.graph == "main" ? module.main.get() : module.findGraph(*options.graph);
    if (!only) {
      err << "pir: error: no graph @" << *options.graph << " in " << options.file << '\n';
      return 2;
    }
  }
  std::string text = device::dotOfModule(module, only);
  if (options.output) return writeFileAtomically(*options.output, text, err) ? 0 : 2;
  out << text;
  out.flush();
  return 0;
}

namespace {

// The module a profile describes: `module` itself, or a copy after the passes,
// kept in `copy` (the profile points into it).
device::Profile profileAfterPasses(const Module& module, DiagnosticEngine& diags, int64_t runs,
                                   const std::vector<std::string>& passes, std::unique_ptr<Module>& copy,
                                   const device::BranchExecutions* branches,
                                   const std::set<std::string>* mainNamesRead) {
  // A program that does not fit has no profile: the graph-compile error instead
  // (also for a file that never ran).
  if (passes.empty()) {
    device::checkDeviceMemory(module, diags);
    return device::profileModule(module, diags, runs, branches);
  }
  copy = module.clone();
  if (!runPasses(*copy, passes, diags, false, nullptr, mainNamesRead))
    throw CompileError({Severity::Error, {}, "the pass pipeline failed", {}});  // already reported
  device::checkDeviceMemory(*copy, diags);
  return device::profileModule(*copy, diags, runs, branches);
}

}  // namespace

void reportProfile(const Module& module, DiagnosticEngine& diags, std::ostream& out, int64_t runs,
                   const std::vector<std::string>& passes, const device::BranchExecutions* branches,
                   const std::set<std::string>* mainNamesRead) {
  std::unique_ptr<Module> copy;
  out << device::formatProfile(profileAfterPasses(module, diags, runs, passes, copy, branches, mainNamesRead),
                               diags.sources(), false);
}

bool writeProfile(const Module& module, DiagnosticEngine& diags, std::ostream* text, int64_t runs,
                  const RunOptions& options, std::ostream& err, const device::BranchExecutions* branches,
                  const std::set<std::string>* mainNamesRead) {
  std::unique_ptr<Module> copy;
  device::Profile p = profileAfterPasses(module, diags, runs, options.passes, copy, branches, mainNamesRead);
  if (options.json && !writeFileAtomically(*options.json, device::profileJson(p, diags.sources()), err)) return false;
  if (options.timeline && !writeFileAtomically(*options.timeline, device::timelineJson(p), err)) return false;
  if (text) *text << device::formatProfile(p, diags.sources(), options.mapping);
  return true;
}

}  // namespace pir::cli
