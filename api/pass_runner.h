// The pass pipeline as the drivers run it (passes/pass_manager.h), with the
// hooks that live above passes/: the VM's constant evaluator for
// fold-constants, the device's merge-exchange pass, and the autodiff
// transform the front end runs at a directive.
#pragma once
#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "frontend/builder.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/result.h"

namespace pir {

// Names accepted by --passes, in the order `pir help opt` lists them.
std::vector<std::string> availablePasses();
// Adds the passes implemented above passes/ (merge-exchange) to the pass
// registry of the context in effect, once (ir/context.h).
void registerDriverPasses();
// Runs `passes` (names from availablePasses()) in order; with `verifyEach`
// the verifier runs after every pass. With `afterEach`, prints "# after PASS"
// and the canonical IR to it after every pass (`opt --print-after-each` does
// its own printing and passes nullptr). `mainNamesRead`: the main values the
// script's commands read (mainValuesReadBy, api/session_driver.h), which passes
// keep (PassContext::mainNamesRead); null when not known (every main value is
// kept). failure() after a reported error (ir/result.h); a name not in
// availablePasses() is an internal error.
LogicalResult runPasses(Module& module, const std::vector<std::string>& passes, DiagnosticEngine& diags,
                        bool verifyEach, std::ostream* afterEach, const std::set<std::string>* mainNamesRead = nullptr);

// The lowering every session of the API compiles through
// (vm::SessionOptions::lowering; decisions.md "Transpose folding is a pass"):
// `module` copied and rewritten by the default lowering pipeline
// (fold-transposes, fold-broadcasts, fuse-matmul-updates), or null when it would not
// change it (no copy).
// The user's module, and so `print`, `:undo` and autodiff, never see it.
std::shared_ptr<const Module> lowerForCompile(const Module& module, DiagnosticEngine& diags);

// passes/autodiff.h's transform, for BuildOptions::autodiff.
AutodiffTransform autodiffTransform();

}  // namespace pir
