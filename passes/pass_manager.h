// The pass manager (tools.md §1): the table of passes, `--passes=LIST`
// pipelines, and running them with `--print-after-each` / `--verify-each`.
//
// A pass transforms a Module in place through the mutation API (ir/rewriter.h)
// and must leave it valid (verifyModule passes) with the program's results
// unchanged. The manager checks the first promise: after every pass under
// `verifyEach`, and always in builds without NDEBUG; a pass that breaks the IR is
// reported as "internal: pass 'X' produced invalid IR: ...".
//
// Layering: passes/ sits on ir/ only. What a pass needs from a higher layer (the
// VM's kernels, for fold-constants) arrives through PassContext as an interface
// declared in ir/, set by the driver.
#pragma once
#include <iosfwd>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/result.h"

namespace pir {
class ConstantEvaluator;  // ir/evaluator.h
}

namespace pir::passes {

// What a pass may use besides the module.
struct PassContext {
  DiagnosticEngine& diags;
  // Evaluates pure ops on constant inputs (fold-constants); may be null, in
  // which case fold-constants folds nothing.
  const ConstantEvaluator* evaluator = nullptr;
  // The main-graph names the script's session commands read (`print`, `save`;
  // generated names like %0 included). Null: not known (the REPL, where any
  // later input may print any value), so every main value may be read.
  const std::set<std::string>* mainNamesRead = nullptr;
};

// Runs the pass on `module`. Errors are reported through ctx.diags (which may
// unwind as CompileError inside the pass: runPipeline converts it); failure()
// after a reported error (ir/result.h). Whether the pass changed anything shows
// in Module::generation.
using PassFn = LogicalResult (*)(Module& module, PassContext& ctx);

struct PassInfo {
  std::string_view name;     // as written in --passes
  std::string_view summary;  // one line, for `pir help opt`
  PassFn run = nullptr;
};

// Every pass of this build, in the order `pir help` lists them (by name).
std::span<const PassInfo> registeredPasses();
// Adds a pass implemented above passes/ (merge-exchange lives in device/): the
// driver registers it at start-up, before any pipeline is parsed. A name may be
// registered once (std::logic_error otherwise).
void registerPass(const PassInfo& pass);
const PassInfo* findPass(std::string_view name);
// "a, b, c" (or "(none in this build)"), for usage text.
std::string passListText();

using Pipeline = std::vector<const PassInfo*>;

// Parses a comma-separated pipeline ("inline,dce"). Blanks around names and
// empty items are ignored, so "" is the empty pipeline. On an unknown name
// returns nullopt and sets `error` to a message naming it, the closest known
// name ("did you mean 'dce'?") and the available passes.
std::optional<Pipeline> parsePipeline(std::string_view text, std::string& error);

struct PipelineOptions {
  bool verifyEach = false;                 // --verify-each
  std::ostream* printAfterEach = nullptr;  // --print-after-each: "# -- after X --" + canonical IR
  const ConstantEvaluator* evaluator = nullptr;
  const std::set<std::string>* mainNamesRead = nullptr;  // PassContext::mainNamesRead
};

// Runs `pipeline` in order on `module`. Stops at the first pass that fails or
// leaves invalid IR and returns failure() (the error has been reported to
// `diags`; no CompileError escapes);
// the module then holds whatever the failing pass left (callers that must not
// keep that roll the module back).
LogicalResult runPipeline(Module& module, std::span<const PassInfo* const> pipeline, DiagnosticEngine& diags,
                          const PipelineOptions& options = {});

// The header printed before the IR after each pass. A comment, so that every
// section of `--print-after-each` output is itself a valid program.
std::string afterPassHeader(std::string_view pass);

}  // namespace pir::passes
