#include "passes/pass_manager.h"

#include <algorithm>
#include <array>
#include <ostream>
#include <stdexcept>

#include "ir/context.h"
#include "ir/internal_error.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

// One row per pass, sorted by name (the order of `pir help` and "available passes").
constexpr std::array kPasses{
    PassInfo{"dce", "removes ops whose results are never used and that have no side effect", &runDce},
    PassInfo{"decompose-sum", "schedules a sum of more than two contributions as a chain of adds (PopXL decompose_sum)",
             &runDecomposeSum},
    PassInfo{"fold-broadcasts",
             "an elementwise op reads a broadcast's operand where it broadcasts it to the same result itself",
             &runFoldBroadcasts},
    PassInfo{"fold-constants", "evaluates ops whose operands are all constants", &runFoldConstants},
    PassInfo{"fold-transposes", "reads a transpose of the last two axes that feeds a matmul through the matmul's transpose flag",
             &runFoldTransposes},
    PassInfo{"fuse-matmul-updates",
             "adds a matmul's product into the weight that a scaled_add_ update, its only reader, writes "
             "(matmul_scaled_add_; inlines a gradient call to reach it)",
             &runFuseMatMulUpdates},
    PassInfo{"inline", "replaces calls by the callee's body (by-value semantics kept)", &runInline},
    PassInfo{"reduce-powers", "pow with a constant exponent of 1, 2, 3 or -1 becomes identity, mul or reciprocal",
             &runReducePowers},
};

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The known name closest to `name`, if it is close enough to be a typo.
const PassInfo* closestPass(std::string_view name) {
  const PassInfo* best = nullptr;
  size_t bestDistance = 0;
  for (const PassInfo& p : registeredPasses()) {
    size_t d = editDistance(name, p.name);
    if (!best || d < bestDistance) best = &p, bestDistance = d;
  }
  // A third of the name (at least 2 edits): "dcee", "inlne", "fold_constants".
  if (best && bestDistance <= std::max<size_t>(2, best->name.size() / 3)) return best;
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Re-checks the module after `pass`; a failure is the pass's bug, reported as such.
bool verifyAfter(const Module& module, const PassInfo& pass, DiagnosticEngine& diags) {
  DiagnosticEngine scratch(diags.sources());
  if (verifyModule(module, scratch).succeeded()) return true;
  Diagnostic d;
  for (const Diagnostic& e : scratch.all())
    if (e.severity == Severity::Error) {
      d = e;
      break;
    }
  d.severity = Severity::Error;
  d.message = "internal: pass '" + std::string(pass.name) + "' produced invalid IR: " + d.message;
  diags.report(d);
  return false;
}

}  // namespace

// The passes of a context (ir/context.h): the table above plus those the
// driver registered in it, sorted by name. registeredPasses, registerPass and
// findPass work on the registry of the context in effect; a name may be
// registered once per context.
struct PassRegistry {
  std::vector<PassInfo> passes{kPasses.begin(), kPasses.end()};
};

std::vector<PassInfo>& registry() { return currentContext().slot<PassRegistry>().passes; }

void registerPass(const PassInfo& pass) {
  std::vector<PassInfo>& passes = registry();
  auto at = std::lower_bound(passes.begin(), passes.end(), pass.name,
                             [](const PassInfo& p, std::string_view name) { return p.name < name; });
  if (at != passes.end() && at->name == pass.name) internalError("registerPass: '" + std::string(pass.name) + "' twice");
  passes.insert(at, pass);
}

std::span<const PassInfo> registeredPasses() { return registry(); }

const PassInfo* findPass(std::string_view name) {
  for (const PassInfo& p : registry())
    if (p.name == name) return &p;
  return nullptr;
}

std::string passListText() {
  if (registry().empty()) return "(none in this build)";
  std::string s;
  for (const PassInfo& p : registry()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

std::optional<Pipeline> parsePipeline(std::string_view text, std::string& error) {
  Pipeline pipeline;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = std::min(text.find(',', start), text.size());
    std::string_view name = trim(text.substr(start, comma - start));
    start = comma + 1;
    if (name.empty()) continue;
    const PassInfo* pass = findPass(name);
    if (!pass) {
      error = "unknown pass '" + std::string(name) + "'";
      if (const PassInfo* near = closestPass(name)) error += " (did you mean '" + std::string(near->name) + "'?)";
      error += "; available passes: " + passListText();
      return std::nullopt;
    }
    pipeline.push_back(pass);
  }
  return pipeline;
}

std::string afterPassHeader(std::string_view pass) { return "# -- after " + std::string(pass) + " --\n"; }

LogicalResult runPipeline(Module& module, std::span<const PassInfo* const> pipeline, DiagnosticEngine& diags,
                          const PipelineOptions& options) {
#ifdef NDEBUG
  const bool verify = options.verifyEach;
#else
  const bool verify = true;  // debug builds check every pass's promise
#endif
  PassContext ctx{diags, options.evaluator, options.mainNamesRead};
  for (const PassInfo* pass : pipeline) {
    try {
      if (pass->run(module, ctx).failed()) return failure();
    } catch (const CompileError&) {
      return failure();  // already reported
    } catch (const std::logic_error& e) {
      // A mutation-API precondition the pass broke (ir/rewriter.h): a pass bug.
      diags.report({Severity::Error, {}, "internal: pass '" + std::string(pass->name) + "' failed: " + e.what(), {}});
      return failure();
    }
    if (verify && !verifyAfter(module, *pass, diags)) return failure();
    if (options.printAfterEach) *options.printAfterEach << afterPassHeader(pass->name) << printModule(module);
  }
  return success();
}

}  // namespace pir::passes
