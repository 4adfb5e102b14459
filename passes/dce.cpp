// dce: removes ops whose results are never used and that have no side effect.
//
// One backward walk per graph decides every op, with liveness tracked per
// alias root (ir/infer.h aliasRoot: an in-place op's result is its written
// operand's tensor). A root is live at a point when an op after it that is kept
// reads it, or when it is seen outside the graph: returned, a by-reference
// input (the caller's tensor), a variable, or a main-graph value a session
// command may print (passes.h readableBySession). An op is kept when
//  - it has a side effect: IO, print_tensor, a collective (all F_SIDE_EFFECT /
//    F_IO / F_COLLECTIVE), an exchange block, or a call/repeat/conditional of a
//    graph that has one, transitively;
//  - it is a `var` declaration (session state), or binds a main-graph value
//    a session command may read;
//  - one of its results' roots is live (someone later reads it); or
//  - it writes in place (itself, or a callee through a by-reference input) a
//    root that is live.
// Kept ops make the roots of all their operands live. The walk is exact for
// straight-line code, so graphs are done callee-first, once; the loop to a
// fixed point only confirms it.
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/infer.h"
#include "ir/rewriter.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

constexpr uint32_t kEffectFlags = F_SIDE_EFFECT | F_IO | F_COLLECTIVE;

class SideEffects {
 public:
  // True when running `g` has an effect other than its results and its writes
  // to by-reference inputs.
  bool of(const Graph& g) {
    auto it = memo_.find(&g);
    if (it != memo_.end()) return it->second;
    memo_[&g] = false;  // recursion is rejected by the verifier; this only guards the walk
    bool effect = false;
    forEachOp(g, [&](const Op& op) { effect = effect || opHasEffect(op); });
    return memo_[&g] = effect;
  }
  bool opHasEffect(const Op& op) {
    if (op.info().flags & kEffectFlags) return true;
    if (op.code == OpCode::Exchange) return true;
    for (const CalleeRef& k : op.callees)
      if (of(*k.graph)) return true;
    return false;
  }

 private:
  std::unordered_map<const Graph*, bool> memo_;
};

class WrittenParams {
 public:
  const std::vector<bool>& of(const Graph& g) {
    auto it = memo_.find(&g);
    if (it == memo_.end()) it = memo_.emplace(&g, paramsWrittenInPlace(g)).first;
    return it->second;
  }

 private:
  std::unordered_map<const Graph*, std::vector<bool>> memo_;
};

const Value* rootOf(const Operand& o) { return o.kind() == Operand::Kind::Value ? aliasRoot(o.value()) : nullptr; }

// The roots `op` writes in place: its in-place operand, and by-reference
// arguments its callees write.
std::vector<const Value*> writtenRoots(const Op& op, WrittenParams& written) {
  std::vector<const Value*> roots;
  int w = inplaceOperandIndex(op.code);
  if (w >= 0 && static_cast<size_t>(w) < op.operands.size())
    if (const Value* r = rootOf(op.operands[w])) roots.push_back(r);
  for (size_t k = 0; k < op.callees.size(); ++k) {
    const Graph& callee = *op.callees[k].graph;
    const std::vector<bool>& cw = written.of(callee);
    auto args = op.args(k);
    for (size_t i = 0; i < args.size() && i < cw.size(); ++i)
      if (cw[i] && callee.params[i]->byRef)
        if (const Value* r = rootOf(args[i])) roots.push_back(r);
  }
  return roots;
}

// The gradient graphs of each forward graph (Graph::gradOf), found once: a scan of
// every graph per graph was quadratic in the graph count.
using GradientsOf = std::unordered_map<const Graph*, std::vector<const Graph*>>;

// Removes the dead ops of `g`; returns how many.
size_t dceGraph(Module& m, Graph& g, SideEffects& effects, WrittenParams& written, const GradientsOf& gradients,
               const PassContext& ctx) {
  std::unordered_set<const Value*> live;  // alias roots read later or seen outside
  auto markLive = [&](const Operand& o) {
    if (const Value* r = rootOf(o)) live.insert(r);
  };
  for (const Operand& o : g.returns) markLive(o);
  for (const Value* p : g.params)
    if (p->byRef) live.insert(p);
  if (auto it = gradients.find(&g); it != gradients.end())  // their activations stand for values of g
    for (const Graph* grad : it->second)
      for (const Value* a : grad->activations) live.insert(aliasRoot(a));
  if (g.isMain)
    for (const auto& v : g.values)
      if (v->def && (v->kind == Value::Kind::Var || readableBySession(*v, ctx))) live.insert(aliasRoot(v.get()));

  std::unordered_set<const Op*> dead;
  for (size_t i = g.ops.size(); i-- > 0;) {
    Op& op = *g.ops[i];
    bool keep = op.code == OpCode::Var || effects.opHasEffect(op);
    for (const Value* r : op.results)
      keep = keep || readableBySession(*r, ctx) || live.count(aliasRoot(r));
    if (!keep)
      for (const Value* r : writtenRoots(op, written)) keep = keep || live.count(r);
    if (!keep) {
      dead.insert(&op);
      continue;
    }
    for (const Operand& o : op.operands) markLive(o);
    for (const auto& inner : op.region())
      for (const Operand& o : inner->operands) markLive(o);
  }
  // Every user of a dead result is itself dead (else the result's root would be live).
  eraseOps(m, g, dead);
  return dead.size();
}

}  // namespace

LogicalResult runDce(Module& m, PassContext& ctx) {
  SideEffects effects;  // erasing dead ops never removes an effect, so this stays valid
  GradientsOf gradients;  // dce erases ops, never graphs or gradOf links
  for (const auto& g : m.graphs)
    if (g->gradOf) gradients[g->gradOf].push_back(g.get());
  for (;;) {
    WrittenParams written;  // recomputed per round: dead in-place writes disappear
    size_t removed = 0;
    for (Graph* g : graphsCalleesFirst(m)) removed += dceGraph(m, *g, effects, written, gradients, ctx);
    if (removed == 0) return success();
  }
}

}  // namespace pir::passes
