// `pir dot`, `pir profile` (and `run --profile`, REPL `:profile`) over the
// device library (device/), and the CLI's hooks into the pass manager
// (passes/pass_manager.h). (run, disasm and repl live in repl/run_command.cpp
// and repl/repl_command.cpp.)
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "device/device_model.h"
#include "device/dot.h"
#include "device/merge_exchange.h"
#include "frontend/builder.h"
#include "frontend/lexical.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/pass_manager.h"
#include "repl/commands.h"
#include "repl/run_counter.h"
#include "repl/session_driver.h"
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
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file))) return 1;
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

int profileCommand(const ProfileOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  const uint32_t file = loadSource(options.file, in, sources, err);
  if (file == 0) return 2;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  diags.setWarningPolicy(options.warnings);
  Module module;
  vm::Session session(module, diags, out);
  // Runs like `pir run` (the session commands as they are read, on a
  // transformed copy with --passes), then reports the program as it stands
  // at the end.
  const std::set<std::string> namesRead = valueNamesReadByCommands(sources.buffer(file).text);
  SessionDriver driver(module, session, diags, options.passes, false, &namesRead);
  RunCounter counter(driver);
  try {
    if (!buildFromBuffer(module, diags, file, baseDirOf(options.file), &counter)) return 1;
    driver.finish();
    if (diags.errorCount() > 0) return 1;
    std::unique_ptr<Module> copy;
    device::Profile p = profileAfterPasses(module, diags, counter.runs(), options.passes, copy,
                                           &session.branchExecutions(), &namesRead);
    if (options.json && !writeFileAtomically(*options.json, device::profileJson(p, sources), err)) return 2;
    if (options.timeline && !writeFileAtomically(*options.timeline, device::timelineJson(p), err)) return 2;
    out << device::formatProfile(p, sources, options.mapping);
  } catch (const CompileError&) {
    return 1;  // already reported
  }
  out.flush();
  return diags.errorCount() > 0 ? 1 : 0;
}

namespace {

bool runMergeExchange(Module& m, passes::PassContext& ctx) { return device::mergeExchange(m, ctx.diags); }

// merge-exchange lives in device/, above passes/: the driver adds it to the
// pass table when the program starts.
const bool kMergeExchangeRegistered = [] {
  passes::registerPass({"merge-exchange",
                        "groups consecutive IO ops with no compute op between them into exchange blocks "
                        "(PopXL merge_exchange)",
                        &runMergeExchange});
  return true;
}();

}  // namespace

std::vector<std::string> availablePasses() {
  std::vector<std::string> names;
  for (const passes::PassInfo& p : passes::registeredPasses()) names.emplace_back(p.name);
  return names;
}

bool runPasses(Module& module, const std::vector<std::string>& names, DiagnosticEngine& diags, bool verifyEach,
               std::ostream* afterEach, const std::set<std::string>* mainNamesRead) {
  passes::Pipeline pipeline;
  for (const std::string& name : names) {
    const passes::PassInfo* pass = passes::findPass(name);
    if (!pass) throw std::logic_error("runPasses: '" + name + "' was not checked against availablePasses()");
    pipeline.push_back(pass);
  }
  passes::PipelineOptions options;
  options.verifyEach = verifyEach;
  options.printAfterEach = afterEach;
  options.mainNamesRead = mainNamesRead;
  static const vm::KernelEvaluator evaluator;  // stateless: shared by every pipeline
  options.evaluator = &evaluator;
  return passes::runPipeline(module, pipeline, diags, options);
}

}  // namespace pir::cli
