// decompose-sum: PopXL's decompose_sum (PopART DecomposeSum) for pir's IR.
//
// PopART decomposes a variadic Sum of more than two inputs — the gradient sum
// autodiff makes where a forward tensor has several consumers — into a chain of
// Adds ordered by when each input can first exist, so that every partial
// gradient can die as soon as it is added instead of living until the last
// one is ready (a cycles-for-liveness trade).
//
// pir has no variadic sum: a sum of contributions is a tree of `add` ops. Here
// a *sum* is a maximal tree of `add`s whose operands are values of exactly the
// result's type (no broadcasting, no literals) and whose inner results have
// exactly one use, the next `add` of the tree; its contributions are the
// leaves, and only sums of more than two are decomposed. (The gradient graphs
// autodiff writes accumulate a tensor's gradient contributions this way.)
//
// The association of the sum is kept: floating-point addition is not
// associative, and the program's results must not change by a bit. Within it,
// every `add` moves up to just after the later of (a) the definitions of its
// two operands and (b) the last op before it that writes either operand in
// place (directly or through a by-reference input): the schedule PopART's
// chain gets, each contribution added as soon as it and the partial sum exist.
// A left-deep tree written after all its contributions (what a naive gradient
// sum looks like) becomes exactly that chain. Adds keep their values and names.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/infer.h"
#include "ir/rewriter.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

// An add whose operands are values of its own result type.
bool isSumNode(const Op& op) {
  if (op.code != OpCode::Add || op.results.size() != 1 || op.enclosing) return false;
  for (const Operand& o : op.operands)
    if (o.kind != Operand::Kind::Value || !(o.value->type == op.results[0]->type)) return false;
  return true;
}

class Scheduler {
 public:
  Scheduler(Module& m, Graph& g) : m_(m), g_(g), uses_(g) {
    for (auto& op : g.ops)
      if (isSumNode(*op)) nodes_.insert(op.get());
  }

  bool run() {
    bool changed = false;
    // Roots: sum nodes that are not the single-use operand of another sum node.
    std::vector<Op*> roots;
    for (auto& op : g_.ops)
      if (nodes_.count(op.get()) && !inner(op.get())) roots.push_back(op.get());
    for (Op* root : roots) {
      std::vector<Op*> postOrder;
      size_t leaves = collect(root, postOrder);
      if (leaves <= 2) continue;
      for (Op* add : postOrder) changed |= hoist(*add);
    }
    return changed;
  }

 private:
  // An inner node: its result's only use is an operand of another sum node.
  bool inner(const Op* op) const {
    const auto& uses = uses_.uses(op->results[0]);
    return uses.size() == 1 && uses[0].op && nodes_.count(uses[0].op);
  }
  // The tree's adds, children first; returns its number of leaves.
  size_t collect(Op* node, std::vector<Op*>& postOrder) const {
    size_t leaves = 0;
    for (const Operand& o : node->operands) {
      Op* def = o.value->def;
      if (def && nodes_.count(def) && inner(def) && def->parent == &g_) leaves += collect(def, postOrder);
      else ++leaves;
    }
    postOrder.push_back(node);
    return leaves;
  }

  // True when `op` writes (in place, or through a by-reference input) a tensor in `roots`.
  bool writesAny(const Op& op, const Value* a, const Value* b) {
    auto hit = [&](const Operand& o) {
      if (o.kind != Operand::Kind::Value) return false;
      const Value* r = aliasRoot(o.value);
      return r == a || r == b;
    };
    int w = inplaceOperandIndex(op.code);
    if (w >= 0 && static_cast<size_t>(w) < op.operands.size() && hit(op.operands[w])) return true;
    for (const auto& in : op.region)
      if (writesAny(*in, a, b)) return true;
    for (size_t k = 0; k < op.callees.size(); ++k) {
      const Graph& callee = *op.callees[k].graph;
      auto args = op.args(k);
      for (size_t i = 0; i < args.size() && i < callee.params.size(); ++i)
        if (callee.params[i]->byRef && hit(args[i])) return true;  // conservative: may write
    }
    return false;
  }

  // Moves `add` up to just after the first op, walking back from it, that
  // defines one of its operands or writes one in place.
  bool hoist(Op& add) {
    const Value* x = add.operands[0].value;
    const Value* y = add.operands[1].value;
    const Value* rx = aliasRoot(x);
    const Value* ry = aliasRoot(y);
    ptrdiff_t pos = positionOf(add);
    Op* anchor = nullptr;
    for (ptrdiff_t i = pos - 1; i >= 0; --i) {
      Op& op = *g_.ops[static_cast<size_t>(i)];
      bool defines = false;
      for (const Value* r : op.results) defines = defines || r == x || r == y;
      for (const auto& in : op.region)
        for (const Value* r : in->results) defines = defines || r == x || r == y;
      if (defines || writesAny(op, rx, ry)) {
        anchor = &op;
        break;
      }
    }
    ptrdiff_t target = anchor ? positionOf(*anchor) + 1 : 0;
    if (target >= pos) return false;
    moveOpAfter(m_, add, anchor);
    return true;
  }

  Module& m_;
  Graph& g_;
  UseMap uses_;  // moving ops keeps every use, so this stays valid
  std::unordered_set<const Op*> nodes_;
};

}  // namespace

bool runDecomposeSum(Module& m, PassContext&) {
  for (Graph* g : graphsCalleesFirst(m)) Scheduler(m, *g).run();
  return true;
}

}  // namespace pir::passes
