// fuse-matmul-updates: an update `scaled_add_ %w, %p {a, b}` whose operand %p is
// a matmul's product read by that update alone becomes
//     matmul_scaled_add_ %x, %y, %w {alpha = b, beta = a, transpose_a, transpose_b}
// in the update's place, and the matmul goes: the GEMM adds the product into %w
// (w = a w + b (x @ y)), so the product's tensor is never written and read back.
// That is an SGD step's update of a weight by its gradient: the gradient's tensor
// and the update's pass over the weight, the gradient and the weight again are
// gone (twice the weight's size in memory traffic, and the gradient's space).
//
// A product computed in a called graph (the gradient graph autodiff made, `call
// @f_grad`) is reached by inlining that call first: a call is inlined when one of
// its results is read by such an update alone and the callee returns a matmul's
// product there that nothing else in the callee reads. Other calls stay, and so do
// all once the inlining would add more ops to the module than the inline pass's limit.
//
// The product moves to a later point of the program, so the update fuses only when
// nothing between the matmul and the update can write the matmul's operands: an
// in-place write (an in-place op, or a call writing a by-reference argument) in
// between blocks it unless the written tensor and each operand are known to be
// distinct tensors. The product must also have the update target's type (no
// broadcast), must not be returned or stand for an activation of a gradient graph,
// and both ops must sit outside exchange blocks. Main graphs are left alone: a
// session command may print the product.
//
// The fused update then moves up from the update's place to just after the last op
// before it that reads or writes a tensor that may be the weight (or to the
// matmul's place): a weight's update follows its last reader (a layer's input
// gradient, in the backward pass) while the weight is still in cache, instead of
// all updates running after the whole backward pass and reading every weight from
// memory again (the LN blocks: 1.2x the steps per second at one thread). Another
// fusion's update counts there as reading its matmul's operands too, since its fused
// op reads them somewhere between its matmul's place and its update's: each fused op
// then still reads what the matmul read, and writes what the update wrote, in the
// original order of the accesses that may share a tensor.
//
// Distinct tensors: a value's tensor is its aliasRoot. Two roots that are results
// of ops of the graph are distinct tensors; a parameter, var or constant may share
// storage with another of them (a caller may bind one tensor to two parameters),
// unless every call of the graph is in main and binds its parameters to pairwise
// distinct tensors there.
//
// The session runs this pass on the program it compiles (api/pass_runner.cpp
// lowerForCompile, after fold-transposes, whose flags the fused op keeps). The
// fused update's bits may differ from the two ops' in the last place
// (matmul_scaled_add_ does not round the product on its own): docs/decisions.md
// "Updates fused into the gradient's product".
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/infer.h"
#include "ir/matmul_operands.h"
#include "ir/op_attrs.h"
#include "ir/op_build.h"
#include "ir/rewriter.h"
#include "ir/write_analysis.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

// `scaled_add_ %w, %p` with its scales as attributes (not tensor operands).
bool isPlainUpdate(const Op& op) {
  return op.code == OpCode::ScaledAddInplace && op.operands.size() == 2 && !op.enclosing() &&
         op.operands[0].kind() == Operand::Kind::Value && op.operands[1].kind() == Operand::Kind::Value;
}

// The tensor `v` writes land on is one an op of the graph owns (not a parameter,
// a var or a constant, which other names may share).
bool ownTensor(const Value* root) { return root->kind == Value::Kind::Result; }

// The graphs every call of which is an op of main that binds the graph's inputs to
// pairwise distinct tensors (different alias roots): their parameters share no
// storage. One walk of the module. Inlining a call of a subgraph into another copies
// calls from a subgraph into a subgraph, which adds no graph to this set, and a
// graph's fusions are decided before any graph that calls it is inlined into, so the
// set found at the start holds for each graph when the pass reaches it.
std::unordered_set<const Graph*> graphsWithDistinctParams(const Module& m) {
  std::unordered_set<const Graph*> called, shared;
  auto visit = [&](const Graph& caller) {
    forEachOp(caller, [&](const Op& op) {
      for (size_t c = 0; c < op.callees.size(); ++c) {
        const Graph* g = op.callees[c].graph;
        called.insert(g);
        std::unordered_set<const Value*> roots;
        bool distinct = caller.isMain;
        for (const Operand& a : op.args(c))
          if (a.kind() == Operand::Kind::Value && !roots.insert(aliasRoot(a.value())).second) distinct = false;
        if (!distinct) shared.insert(g);
      }
    });
  };
  for (const auto& h : m.graphs) visit(*h);
  visit(*m.main);
  std::unordered_set<const Graph*> distinct;
  for (const Graph* g : called)
    if (!shared.count(g)) distinct.insert(g);
  return distinct;
}

// Whether two alias roots of one graph may be one tensor (see the file comment).
class AliasModel {
 public:
  explicit AliasModel(bool distinctParams) : distinctParams_(distinctParams) {}
  bool mayAlias(const Value* a, const Value* b) const {
    return a == b || (!distinctParams_ && !ownTensor(a) && !ownTensor(b));
  }

 private:
  bool distinctParams_;
};

struct Fusion {
  Op* matmul;
  Op* update;
  Op* before;  // the top-level op the fused update goes before
};

// The ops the pass may look at between a matmul and its update, over the whole
// module: each candidate scans its span, so a graph of n matmuls followed by n
// updates would cost n^2. Past the budget a candidate is left unfused (or a fused
// update where the program put it): the result depends on the module alone.
class ScanBudget {
 public:
  // True, and the ops counted, when `ops` more fit.
  bool spend(uint64_t ops) {
    if (ops > left_) {
      left_ = 0;
      return false;
    }
    left_ -= ops;
    return true;
  }

 private:
  uint64_t left_ = uint64_t{1} << 26;
};

// Whether top-level `op` (an exchange block: its body) reads or writes a tensor
// that may be `root`'s.
bool touches(const Op& op, const Value* root, const AliasModel& alias) {
  for (const Operand& o : op.operands)
    if (o.kind() == Operand::Kind::Value && alias.mayAlias(aliasRoot(o.value()), root)) return true;
  for (const auto& inner : op.region())
    if (touches(*inner, root, alias)) return true;
  return false;
}

// The op the fused update of `f` goes before: just after the last top-level op
// between the matmul and the update that touches the weight, else the matmul's place.
// Another fusion's update stands for its matmul's reads too (`productOf`): its fused
// op reads the matmul's operands somewhere between the two, so a weight those may
// share is not written before that update's place.
Op* hoistedPlace(Graph& g, const Fusion& f, const std::unordered_map<const Op*, size_t>& topLevel,
                 const std::unordered_map<const Op*, const Op*>& productOf, const AliasModel& alias,
                 ScanBudget& budget) {
  const Value* weight = aliasRoot(f.update->operands[0].value());
  const size_t from = topLevel.at(f.matmul), to = topLevel.at(f.update);
  if (!budget.spend(to - from)) return f.update;
  for (size_t k = to; k-- > from + 1;) {
    const Op& op = *g.ops[k];
    const auto other = productOf.find(&op);
    if (touches(op, weight, alias) || (other != productOf.end() && touches(*other->second, weight, alias)))
      return g.ops[k + 1].get();
  }
  return f.matmul;
}

// The fusions of `g`'s updates (see the file comment), in program order.
std::vector<Fusion> findFusions(Graph& g, WriteAnalysis& writes, const std::unordered_set<const Value*>& pinned,
                                const AliasModel& alias, ScanBudget& budget) {
  std::vector<const Op*> ops;
  WriteAnalysis::flatten(g.ops, ops);
  std::unordered_map<const Op*, size_t> position;
  for (size_t k = 0; k < ops.size(); ++k) position.emplace(ops[k], k);
  const UseMap uses(g);
  std::vector<Fusion> fusions;
  for (size_t j = 0; j < ops.size(); ++j) {
    const Op& update = *ops[j];
    if (!isPlainUpdate(update)) continue;
    const Value* product = update.operands[1].value();
    const Op* matmul = product->def;
    if (!matmul || matmul->code != OpCode::MatMul || matmul->enclosing() || matmul->parent != &g) continue;
    if (pinned.count(product) || uses.uses(product).size() != 1) continue;
    if (!isFloat(product->type.get().dtype) || product->type.get() != update.operands[0].type()) continue;
    if (!budget.spend(j - position.at(matmul))) continue;
    std::vector<const Value*> operandRoots;
    for (const Operand& o : matmul->operands)
      if (o.kind() == Operand::Kind::Value) operandRoots.push_back(aliasRoot(o.value()));
    bool blocked = false;
    for (size_t k = position.at(matmul) + 1; k < j && !blocked; ++k)
      writes.forEachWrittenOperand(*ops[k], [&](const Operand& o) {
        if (o.kind() != Operand::Kind::Value) return;
        const Value* written = aliasRoot(o.value());
        for (const Value* read : operandRoots) blocked = blocked || alias.mayAlias(written, read);
      });
    if (!blocked) fusions.push_back({const_cast<Op*>(matmul), const_cast<Op*>(&update), nullptr});
  }
  std::unordered_map<const Op*, size_t> topLevel;
  for (size_t k = 0; k < g.ops.size(); ++k) topLevel.emplace(g.ops[k].get(), k);
  std::unordered_map<const Op*, const Op*> productOf;  // update -> its matmul
  for (const Fusion& f : fusions) productOf.emplace(f.update, f.matmul);
  for (Fusion& f : fusions) f.before = hoistedPlace(g, f, topLevel, productOf, alias, budget);
  return fusions;
}

// The calls of `g` worth inlining: a result read by a plain update alone, which the
// callee returns from a matmul that nothing else in the callee reads. `calleeUses`:
// the callees' def-use maps, made once per callee for the whole pass.
std::unordered_set<const Op*> callsToInline(Graph& g, const std::unordered_set<const Value*>& pinned,
                                            std::unordered_map<const Graph*, UseMap>& calleeUses) {
  std::unordered_set<const Op*> calls;
  std::optional<UseMap> uses;
  for (const auto& op : g.ops) {
    if (!isPlainUpdate(*op)) continue;
    const Value* result = op->operands[1].value();
    const Op* call = result->def;
    if (!call || call->code != OpCode::Call || call->enclosing() || calls.count(call)) continue;
    if (!uses) uses.emplace(g);
    if (uses->uses(result).size() != 1) continue;
    const Graph& callee = *call->callees[0].graph;
    size_t r = 0;
    while (r < call->results.size() && call->results[r] != result) ++r;
    if (r >= callee.returns.size() || callee.returns[r].kind() != Operand::Kind::Value) continue;
    const Value* returned = callee.returns[r].value();
    if (!returned->def || returned->def->code != OpCode::MatMul || pinned.count(returned)) continue;
    auto known = calleeUses.find(&callee);
    if (known == calleeUses.end()) known = calleeUses.emplace(&callee, UseMap(const_cast<Graph&>(callee))).first;
    if (known->second.uses(returned).size() == 1) calls.insert(call);
  }
  return calls;
}

bool hasPlainUpdate(const Graph& g) {
  for (const auto& op : g.ops)
    if (isPlainUpdate(*op)) return true;
  return false;
}

void fuse(Module& m, Graph& g, const Fusion& f, DiagnosticEngine& diags) {
  const attrs::ScaledAddInplace scales{*f.update};
  const attrs::MatMul flags{*f.matmul};
  OpBuilder b(m, g, diags);
  b.setInsertionPoint(f.before);
  b.setLoc(f.update->loc);
  Value* updated = !f.update->results.empty() ? f.update->results[0] : nullptr;
  std::vector<std::string> names;
  if (updated) {  // the fused op's result takes the update's name
    names.push_back(updated->name);
    renameValue(m, *updated, freshName(g), true);
  }
  Op* fused = b.create<OpCode::MatMulScaledAddInplace>(
      {f.matmul->operands[0], f.matmul->operands[1], f.update->operands[0]},
      build::MatMulScaledAddInplace{}
          .alpha(scales.b())
          .beta(scales.a())
          .transpose_a(flags.transpose_a())
          .transpose_b(flags.transpose_b()),
      std::move(names));
  if (updated) replaceAllUsesWith(m, updated, fused->results[0]);
}

}  // namespace

bool hasMatMulUpdatesToFuse(const Module& m) {
  for (const auto& g : m.graphs)
    for (const auto& op : g->ops)
      if (isPlainUpdate(*op)) {
        const Op* def = op->operands[1].value()->def;
        if (def && (def->code == OpCode::MatMul || def->code == OpCode::Call)) return true;
      }
  return false;
}

LogicalResult runFuseMatMulUpdates(Module& m, PassContext& ctx) {
  WriteAnalysis writes;
  // Forward values a gradient graph stands for, and the gradient graphs of each graph.
  std::unordered_set<const Value*> pinned;
  std::unordered_map<const Graph*, std::vector<const Graph*>> gradients;
  for (const auto& g : m.graphs) {
    for (const Value* v : g->activations) pinned.insert(v);
    if (g->gradOf) gradients[g->gradOf].push_back(g.get());
  }
  const std::unordered_set<const Graph*> distinctParams = graphsWithDistinctParams(m);
  std::unordered_map<const Graph*, UseMap> calleeUses;
  uint64_t inlineOpsLeft = kMaxInlinedOps;  // for the whole module
  ScanBudget scans;
  for (Graph* g : graphsCalleesFirst(m)) {
    if (g->isMain || !hasPlainUpdate(*g)) continue;
    const std::unordered_set<const Op*> calls = callsToInline(*g, pinned, calleeUses);
    // Inlining may give the activations of g's gradient graphs new values of g (the
    // values they replace stay in the set: that only keeps more).
    if (!calls.empty() &&
        inlineSelectedCalls(m, *g, [&](const Op& call) { return calls.count(&call) > 0; }, ctx.diags, inlineOpsLeft))
      if (auto grads = gradients.find(g); grads != gradients.end())
        for (const Graph* gg : grads->second) pinned.insert(gg->activations.begin(), gg->activations.end());
    const std::vector<Fusion> fusions = findFusions(*g, writes, pinned, AliasModel(distinctParams.count(g) > 0), scans);
    if (fusions.empty()) continue;
    std::unordered_set<const Op*> dead;
    for (const Fusion& f : fusions) {
      fuse(m, *g, f, ctx.diags);
      dead.insert(f.update);
      dead.insert(f.matmul);
    }
    eraseOps(m, *g, dead);
  }
  return success();
}

}  // namespace pir::passes
