// The passes of tools.md §1, registered in passes/pass_manager.cpp. Each keeps
// the IR valid and the program's results unchanged; docs/decisions.md
// ("Passes") records what each one does where the spec is silent.
#pragma once
#include "passes/pass_manager.h"

namespace pir::passes {

// Removes ops whose results are never used and that have no side effect (dce.cpp).
bool runDce(Module& m, PassContext& ctx);
// Replaces `call`s by the callee's body, by-value semantics kept (inline.cpp).
bool runInline(Module& m, PassContext& ctx);
// Evaluates pure ops whose operands are all constants (fold_constants.cpp).
bool runFoldConstants(Module& m, PassContext& ctx);
// Schedules sums of more than two contributions as chains of adds (decompose_sum.cpp).
bool runDecomposeSum(Module& m, PassContext& ctx);

// ---- helpers shared by the passes (pass_util.cpp) ----------------------------

// A main-graph value whose name was written in the source: a session command
// (`print %v`, language.md §11) may read it, so passes keep it and its value.
bool isUserNamedInMain(const Value& v);
// Every graph of the module, subgraphs in definition order (callees first), then main.
std::vector<Graph*> graphsCalleesFirst(Module& m);
// Moves top-level `op` to just after top-level `after` of the same graph
// (nullptr: to the front), keeping its values (and their identities). Journaled.
void moveOpAfter(Module& m, Op& op, Op* after);

}  // namespace pir::passes
