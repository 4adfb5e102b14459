// The passes of tools.md §1, registered in passes/pass_manager.cpp. Each keeps
// the IR valid and the program's results unchanged; docs/decisions.md
// ("Passes") records what each one does where the spec is silent.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_set>

#include "ir/write_analysis.h"
#include "passes/pass_manager.h"

namespace pir::passes {

// Removes ops whose results are never used and that have no side effect (dce.cpp).
LogicalResult runDce(Module& m, PassContext& ctx);
// Replaces `call`s by the callee's body, by-value semantics kept (inline.cpp).
LogicalResult runInline(Module& m, PassContext& ctx);
// The most ops inlining may leave in a module (about 1 KB of host memory each): the
// inline pass's limit on what the graphs that stay hold, and fuse-matmul-updates'
// limit on the ops its inlining adds.
constexpr uint64_t kMaxInlinedOps = 4'000'000;
// Inlines the calls of `g` (top-level, inlinable) that `select` picks, each as the
// inline pass would, leaving its other calls and the callees in place (inline.cpp).
// A picked call whose expansion would add more ops than `opsLeft` stays too; the
// others lower it by what they add. False, and nothing changed, when none is inlined.
bool inlineSelectedCalls(Module& m, Graph& g, const std::function<bool(const Op&)>& select, DiagnosticEngine& diags,
                         uint64_t& opsLeft);
// Adds the product of a matmul into the weight its only reader, an update
// `scaled_add_`, writes: matmul_scaled_add_ (fuse_matmul_updates.cpp).
LogicalResult runFuseMatMulUpdates(Module& m, PassContext& ctx);
// Whether fuse-matmul-updates would change `m`, without copying it.
bool hasMatMulUpdatesToFuse(const Module& m);
// Evaluates pure ops whose operands are all constants (fold_constants.cpp).
LogicalResult runFoldConstants(Module& m, PassContext& ctx);
// Schedules sums of more than two contributions as chains of adds (decompose_sum.cpp).
LogicalResult runDecomposeSum(Module& m, PassContext& ctx);
// Reads a transpose of the last two axes feeding a matmul through the matmul's
// transpose flag (fold_transposes.cpp).
LogicalResult runFoldTransposes(Module& m, PassContext& ctx);
// Whether fold-transposes would change `m` (a matmul operand it folds), in one
// walk and without copying: a caller that runs it on a copy skips the copy.
bool hasTransposesToFold(const Module& m);
// Reads the operand of a broadcast feeding an elementwise op that broadcasts it to
// the same result itself (fold_broadcasts.cpp).
LogicalResult runFoldBroadcasts(Module& m, PassContext& ctx);
// Whether fold-broadcasts would change `m`, in one walk and without copying.
bool hasBroadcastsToFold(const Module& m);

// Rewrites `pow x, c` with a constant exponent of 1, 2, 3 or -1 as the ops it equals
// (reduce_powers.cpp).
LogicalResult runReducePowers(Module& m, PassContext& ctx);
// Whether reduce-powers would change `m`, in one walk and without copying.
bool hasPowersToReduce(const Module& m);

// ---- helpers shared by the passes (pass_util.cpp) ----------------------------

// The value of a one-element constant operand (a literal, or the value of a `const`
// of written data), if it is one.
std::optional<double> scalarConstant(const Operand& o);

// A main-graph value a session command (`print %v`, language.md §11) may read,
// so passes keep it and its value: its name was written in the source, or a
// command of the script names it (a generated %0 too), or the commands are not
// known (ctx.mainNamesRead null).
bool readableBySession(const Value& v, const PassContext& ctx);
// Every graph of the module, subgraphs in definition order (callees first), then main.
std::vector<Graph*> graphsCalleesFirst(Module& m);
// Erases the top-level ops `dead` of `g` at once, in O(size of g): their
// results are detached (as ir/rewriter.h eraseOp does) and the op list rebuilt.
// No op that stays, return or activation may use their results (checked:
// std::logic_error, a pass bug). Journaled. (eraseOp walks the graph per
// result, which makes removing many ops quadratic.)
void eraseOps(Module& m, Graph& g, const std::unordered_set<const Op*>& dead);

// ---- the frame of the passes that fold a value into its readers --------------
// (fold_transposes.cpp, fold_broadcasts.cpp)

// The ops of `g` in program order, exchange blocks flattened (their ops, not the blocks).
std::vector<Op*> flatOps(Graph& g);
// Per position k of `ops`: the position of the last op at or before k that writes
// anything in place (an in-place op, or a call whose callee writes a by-reference
// argument), SIZE_MAX when none. A value read at k is the one an op at j produced when
// the entry at k - 1 is SIZE_MAX or below j.
std::vector<size_t> lastInPlaceWrites(const std::vector<Op*>& ops, WriteAnalysis& writes);
// Whether `pred` holds for some op of `m`, nested ones included.
bool anyOp(const Module& m, const std::function<bool(const Op&)>& pred);
// Runs `foldGraph(g, writes, activations)` on every graph, callees first, and erases the
// ops it returns. `activations`: the forward values gradient graphs stand for (they stay).
using FoldGraph =
    std::function<std::vector<Op*>(Graph&, WriteAnalysis&, const std::unordered_set<const Value*>& activations)>;
LogicalResult foldAndErase(Module& m, const FoldGraph& foldGraph);

}  // namespace pir::passes
