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
// All placements are decided on the original order, then the op list is
// rebuilt once: O(n log n) per graph.
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
  if (op.code != OpCode::Add || op.results.size() != 1 || op.enclosing()) return false;
  for (const Operand& o : op.operands)
    if (o.kind() != Operand::Kind::Value || !(o.value()->type == op.results[0]->type)) return false;
  return true;
}

// Program order as sortable keys: an op that stays has (its position, 0); an add
// hoisted to just after the op at position p has (p, n) with n increasing in
// the order adds are placed, so children precede parents and later placements
// follow earlier ones after the same op.
struct Key {
  ptrdiff_t major = -1;
  uint64_t minor = 0;
  bool operator<(const Key& o) const { return major != o.major ? major < o.major : minor < o.minor; }
};

class Scheduler {
 public:
  Scheduler(Module& m, Graph& g) : m_(m), g_(g), uses_(g) {
    for (size_t i = 0; i < g.ops.size(); ++i) {
      Op* op = g.ops[i].get();
      key_[op] = {static_cast<ptrdiff_t>(i), 0};
      if (isSumNode(*op)) nodes_.insert(op);
      recordWrites(*op, static_cast<ptrdiff_t>(i));
    }
  }

  // Places every add of every sum of more than two; rebuilds the op list once.
  bool run() {
    bool moved = false;
    for (auto& op : g_.ops) {
      if (!nodes_.count(op.get()) || inner(op.get())) continue;
      std::vector<Op*> postOrder;
      if (collect(op.get(), postOrder) <= 2) continue;
      for (Op* add : postOrder) moved |= place(*add);
    }
    if (moved) reorder();
    return moved;
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
      Op* def = o.value()->def;
      if (def && nodes_.count(def) && inner(def)) leaves += collect(def, postOrder);
      else ++leaves;
    }
    postOrder.push_back(node);
    return leaves;
  }

  // Writers per alias root: in-place ops, exchange blocks holding one, and
  // calls binding it to a by-reference input (conservatively: may write).
  void recordWrites(const Op& op, ptrdiff_t pos) {
    auto note = [&](const Operand& o) {
      if (o.kind() == Operand::Kind::Value) writers_[aliasRoot(o.value())].push_back(pos);
    };
    int w = inplaceOperandIndex(op.code);
    if (w >= 0 && static_cast<size_t>(w) < op.operands.size()) note(op.operands[w]);
    for (const auto& in : op.region()) {
      int iw = inplaceOperandIndex(in->code);
      if (iw >= 0 && static_cast<size_t>(iw) < in->operands.size()) note(in->operands[iw]);
    }
    for (size_t k = 0; k < op.callees.size(); ++k) {
      const Graph& callee = *op.callees[k].graph;
      auto args = op.args(k);
      for (size_t i = 0; i < args.size() && i < callee.params.size(); ++i)
        if (callee.params[i]->byRef) note(args[i]);
    }
  }
  // The key of the op defining `v` (a param: before everything).
  Key defKey(const Value* v) const {
    if (!v->def) return {};
    const Op* def = v->def->enclosing() ? v->def->enclosing() : v->def;
    return key_.at(def);
  }
  // The last write to `v`'s tensor before original position `pos`.
  Key lastWriteBefore(const Value* v, ptrdiff_t pos) const {
    auto it = writers_.find(aliasRoot(v));
    if (it == writers_.end()) return {};
    auto w = std::lower_bound(it->second.begin(), it->second.end(), pos);  // positions are ascending
    if (w == it->second.begin()) return {};
    return {*std::prev(w), 0};
  }

  // Puts `add` just after the later of its operands' definitions and the last
  // in-place writes to them; true if that is earlier than where it is.
  bool place(Op& add) {
    const ptrdiff_t pos = key_.at(&add).major;
    Key anchor;
    for (const Operand& o : add.operands) {
      anchor = std::max(anchor, defKey(o.value()));
      anchor = std::max(anchor, lastWriteBefore(o.value(), pos));
    }
    if (anchor.major >= pos - 1 && anchor.minor == 0) return false;  // already right after it
    key_[&add] = {anchor.major, ++placed_};
    return true;
  }

  // One stable sort by key and one journaled rebuild of the op list.
  void reorder() {
    std::vector<Op*> before, after;
    for (auto& op : g_.ops) before.push_back(op.get());
    after = before;
    std::stable_sort(after.begin(), after.end(), [&](Op* a, Op* b) { return key_.at(a) < key_.at(b); });
    rebuildOps(m_, g_, [&](std::vector<std::unique_ptr<Op>>& old, std::vector<std::unique_ptr<Op>>&) {
      std::unordered_map<const Op*, std::unique_ptr<Op>> owned;
      for (auto& op : old) owned.emplace(op.get(), std::move(op));
      for (Op* op : after) g_.ops.push_back(std::move(owned.at(op)));
    });
  }

  Module& m_;
  Graph& g_;
  UseMap uses_;
  std::unordered_set<const Op*> nodes_;
  std::unordered_map<const Op*, Key> key_;
  std::unordered_map<const Value*, std::vector<ptrdiff_t>> writers_;
  uint64_t placed_ = 0;
};

}  // namespace

LogicalResult runDecomposeSum(Module& m, PassContext&) {
  for (Graph* g : graphsCalleesFirst(m)) Scheduler(m, *g).run();
  return success();
}

}  // namespace pir::passes
