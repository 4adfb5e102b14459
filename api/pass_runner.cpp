#include "api/pass_runner.h"

#include <array>
#include <stdexcept>
#include <string_view>

#include "device/merge_exchange.h"
#include "ir/internal_error.h"
#include "passes/autodiff.h"
#include "passes/pass_manager.h"
#include "passes/passes.h"
#include "vm/const_eval.h"

namespace pir {

namespace {

LogicalResult runMergeExchange(Module& m, passes::PassContext& ctx) { return device::mergeExchange(m, ctx.diags); }

// The default context (the `pir` tool's) has them from the start.
const bool kDriverPassesRegistered = (registerDriverPasses(), true);

}  // namespace

// merge-exchange lives in device/, above passes/: this layer adds it to a
// context's pass table.
void registerDriverPasses() {
  if (passes::findPass("merge-exchange")) return;
  passes::registerPass({"merge-exchange",
                        "groups consecutive IO ops with no compute op between them into exchange blocks "
                        "(PopXL merge_exchange)",
                        &runMergeExchange});
}

std::vector<std::string> availablePasses() {
  (void)kDriverPassesRegistered;
  registerDriverPasses();
  std::vector<std::string> names;
  for (const passes::PassInfo& p : passes::registeredPasses()) names.emplace_back(p.name);
  return names;
}

LogicalResult runPasses(Module& module, const std::vector<std::string>& names, DiagnosticEngine& diags,
                        bool verifyEach, std::ostream* afterEach, const std::set<std::string>* mainNamesRead) {
  registerDriverPasses();
  passes::Pipeline pipeline;
  for (const std::string& name : names) {
    const passes::PassInfo* pass = passes::findPass(name);
    if (!pass) internalError("runPasses: '" + name + "' was not checked against availablePasses()");
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

std::shared_ptr<const Module> lowerForCompile(const Module& module, DiagnosticEngine& diags) {
  if (!passes::hasTransposesToFold(module) && !passes::hasBroadcastsToFold(module) &&
      !passes::hasMatMulUpdatesToFuse(module) && !passes::hasPowersToReduce(module))
    return nullptr;
  std::shared_ptr<Module> lowered = module.clone();
  // fold-transposes first: the fused updates keep the flags it gives the products.
  static constexpr std::array kLowering{"fold-transposes", "fold-broadcasts", "fuse-matmul-updates", "reduce-powers"};
  passes::Pipeline pipeline;
  for (std::string_view name : kLowering) pipeline.push_back(passes::findPass(name));
  // The pass reports nothing of its own: a failure here is a bug of the pass.
  if (passes::runPipeline(*lowered, pipeline, diags).failed()) internalError("the compile lowering failed");
  return lowered;
}

AutodiffTransform autodiffTransform() { return &pir::autodiff; }

}  // namespace pir
