// inline: replaces every `call` by a copy of the callee's body.
//
// Each graph that stays (planInline) gets every inlinable call expanded, with
// the calls inside the callee's body expanded in turn (expandCall, iterative), so
// a graph that is only ever called is never expanded on its own: inlining a call
// chain D deep costs O(D), where expanding callees first made every level hold
// everything below it (O(D^2)). `repeat` and `conditional` are not inlined
// (their bodies run a number of times / one of two ways), nor a call with a
// resource argument.
//
// By-value semantics (language.md §4, §7) are kept exactly:
//  - a by-value input the callee writes in place (directly, through a view or
//    through a by-reference input of its own callee) is bound to a copy
//    (`identity`) of the argument; any other input is bound to the argument
//    itself, which nothing writes before the body has read it;
//  - a literal argument becomes a `const` (and is copied too if written);
//  - a call's result is a fresh tensor: a returned value whose tensor the caller
//    can see (an input, a constant, a caller value) or that is returned twice is
//    copied, so that a later in-place write to the result touches nothing else.
// The call's results are replaced by the returned values, which take the
// results' names (a session command may print them). Values the copy adds to a
// main graph are marked as generated: no source named them there, so dce may
// remove them and a name the user writes later takes precedence (as for `%N`).
// A graph some inlinable call names is erased unless a graph that stays refers
// to it otherwise (a repeat, a conditional, a call not inlined, `grad_of`). What
// the graphs that stay will hold is checked first: beyond kMaxInlinedOps ops the
// pass fails with a located error and changes nothing.
#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/checked_math.h"
#include "ir/infer.h"
#include "ir/rewriter.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {


// Marks values a copy created in a main graph as generated (see above). They
// are new, so the change needs no journal entry: undoing the copy drops them.
void markGenerated(Op& op) {
  if (!op.parent->isMain) return;
  for (Value* v : op.results) v->generatedName = true;
  for (auto& inner : op.region())
    for (Value* v : inner->results) v->generatedName = true;
}

// A value holding the literal `o` (a `const`, inserted at the builder's point).
Value* materializeLiteral(OpBuilder& b, const Operand& o, const std::string& name) {
  Value* v = b.constant(o.literalType(), o.literal()->values, name);
  markGenerated(*v->def);
  return v;
}

// True when every argument of `call` can be bound: a value or a data literal.
bool inlinable(const Op& call) {
  for (const Operand& a : call.args(0))
    if (a.kind() == Operand::Kind::Resource ||
        (a.kind() == Operand::Kind::Literal && (!a.literal() || a.literal()->kind != Literal::Kind::Data)))
      return false;
  return true;
}

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

// Appends the body of `call`'s callee through `b`, with every inlinable call in
// it expanded the same way (callee bodies as written, not as inlined: graphs
// that are only ever called are never expanded on their own); returns the value
// standing for each output of `call`: fresh, and distinct per output.
//
// Iterative (a stack of frames, one per call being expanded), so that a call
// chain of any depth expands in time and memory linear in what it appends. A
// value is fresh for a frame when the frame created it: values of the graph
// being built get dense increasing ids, so those are the ids from the frame's
// first on (its bound copies, the clones of its ops, the results of its nested
// calls); whatever it was handed (arguments) or a constant is not.
std::vector<Value*> expandCall(OpBuilder& b, Graph& g, const Op& call, WrittenParams& written) {
  struct Frame {
    const Graph* callee;
    const Op* call;      // the call being expanded (in g, or in the enclosing callee's body)
    IRMapping map;       // callee values -> values of g
    size_t next = 0;     // the callee's next op to copy
    unsigned firstId;    // the first id of g this frame created
  };
  std::vector<Frame> stack;
  // Binds the callee's params to `call`'s arguments (`outer` maps the caller's
  // values; null for `call` in g itself) and pushes the frame.
  auto enter = [&](const Op& c, const IRMapping* outer) {
    const Graph& callee = *c.callees[0].graph;
    const std::vector<bool>& w = written.of(callee);
    Frame f{&callee, &c, {}, 0, static_cast<unsigned>(g.values.size())};
    auto args = c.args(0);
    for (size_t i = 0; i < callee.params.size(); ++i) {
      Value* p = callee.params[i];
      const Operand& a = args[i];
      Value* v = a.kind() == Operand::Kind::Literal ? materializeLiteral(b, a, p->name)
                                                  : (outer ? outer->lookupOrSelf(a.value()) : a.value());
      if (!p->byRef && w[i]) {
        v = b.create1(OpCode::Identity, {v}, {}, p->name);
        markGenerated(*v->def);
      }
      f.map.map(p, v);
    }
    stack.push_back(std::move(f));
  };
  enter(call, nullptr);
  for (;;) {
    Frame& f = stack.back();
    if (f.next < f.callee->ops.size()) {
      const Op& op = *f.callee->ops[f.next++];
      if (op.code == OpCode::Call && inlinable(op)) {
        enter(op, &f.map);  // invalidates `f`
        continue;
      }
      markGenerated(*b.clone(op, f.map));
      continue;
    }
    // The frame's body is copied: the values standing for its outputs.
    auto freshHere = [&](const Value* v) { return v->graph == &g && v->id >= f.firstId; };
    std::vector<Value*> replacement;
    std::unordered_set<const Value*> rootsTaken;
    for (const Operand& ret : f.callee->returns) {
      Value* v;
      if (ret.kind() == Operand::Kind::Literal) {
        v = materializeLiteral(b, ret, "");
        v = b.create1(OpCode::Identity, {v}, {}, "");
        markGenerated(*v->def);
      } else {
        v = f.map.lookupOrSelf(ret.value());
        const Value* root = aliasRoot(v);
        bool ownTensor = freshHere(root) && root->kind == Value::Kind::Result && !rootsTaken.count(root);
        if (!ownTensor) {
          v = b.create1(OpCode::Identity, {v}, {}, "");
          markGenerated(*v->def);
        }
      }
      rootsTaken.insert(aliasRoot(v));
      replacement.push_back(v);
    }
    const Op* done = f.call;
    stack.pop_back();
    if (stack.empty()) return replacement;
    for (size_t j = 0; j < done->results.size() && j < replacement.size(); ++j)
      stack.back().map.map(done->results[j], replacement[j]);
  }
}

// Ops that inlining `g` adds: its own ops, an inlined call standing for its
// callee's expansion plus the copies and constants that bind it (at most one per
// param and per output). Saturates; memoized per graph.
class ExpandedSize {
 public:
  uint64_t of(const Graph& g) {
    if (auto it = memo_.find(&g); it != memo_.end()) return it->second;
    // Callees first, without recursion (a chain may be deeper than the stack).
    std::vector<std::pair<const Graph*, bool>> todo{{&g, false}};
    while (!todo.empty()) {
      auto [h, expanded] = todo.back();
      todo.pop_back();
      if (memo_.count(h)) continue;
      if (!expanded) {
        todo.push_back({h, true});
        for (const auto& op : h->ops)
          if (op->code == OpCode::Call && inlinable(*op) && !memo_.count(op->callees[0].graph))
            todo.push_back({op->callees[0].graph, false});
        continue;
      }
      uint64_t n = 0;
      for (const auto& op : h->ops) {
        if (op->code == OpCode::Call && inlinable(*op)) {
          const Graph& callee = *op->callees[0].graph;
          n = saturatingAdd(n, saturatingAdd(memo_.at(&callee), callee.params.size() + callee.returns.size()));
        } else {
          n = saturatingAdd(n, 1 + op->region().size());
        }
      }
      memo_[h] = n;
    }
    return memo_.at(&g);
  }

 private:
  std::unordered_map<const Graph*, uint64_t> memo_;
};

// Inlines every call of `g` in one journaled rebuild of its op list: the ops
// are taken out and put back in order, each call replaced by its expanded body,
// and later operands (and returns, and activations naming g's values) that
// used a call's result are redirected as they pass. O(size of g + bodies),
// where one replace-all-uses and one erase per call would walk g each time.
// `gradients`: the gradient graphs of each graph (Graph::gradOf), found once.
// `select` picks which of g's own inlinable calls to expand (null: all of them).
void inlineCallsIn(Module& m, Graph& g, DiagnosticEngine& diags, WrittenParams& written,
                   const std::unordered_map<const Graph*, std::vector<Graph*>>& gradients,
                   const std::function<bool(const Op&)>& select = nullptr) {
  auto expands = [&](const Op& op) { return op.code == OpCode::Call && inlinable(op) && (!select || select(op)); };
  bool any = false;
  for (const auto& op : g.ops) any = any || expands(*op);
  if (!any) return;

  OpBuilder b(m, g, diags);  // appends
  std::unordered_map<const Value*, Value*> replaced;
  rebuildOps(m, g, [&](std::vector<std::unique_ptr<Op>>& old, std::vector<std::unique_ptr<Op>>& removed) {
  auto redirect = [&](Op& op) {
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind() != Operand::Kind::Value) continue;
      auto it = replaced.find(o.value());
      if (it == replaced.end()) continue;
      Operand x = o;
      x.setValue(it->second);
      setOperand(m, op, i, std::move(x));
    }
  };
  for (auto& owned : old) {
    Op& op = *owned;
    redirect(op);
    for (auto& inner : op.region()) redirect(*inner);
    if (!expands(op)) {
      g.ops.push_back(std::move(owned));
      continue;
    }
    b.setLoc(op.loc);
    std::vector<Value*> replacement = expandCall(b, g, op, written);
    for (size_t j = 0; j < op.results.size() && j < replacement.size(); ++j) {
      Value* r = op.results[j];
      replaced[r] = replacement[j];
      // Detach the call's result (out of scope, no defining op), then give its
      // name to the value standing for it.
      detachValue(m, r);
      renameValue(m, *replacement[j], r->name, r->generatedName);
    }
    removed.push_back(std::move(owned));
  }
  });
  for (size_t i = 0; i < g.returns.size(); ++i) {
    Operand& o = g.returns[i];
    if (o.kind() != Operand::Kind::Value || !replaced.count(o.value())) continue;
    setReturnValue(m, g, i, replaced.at(o.value()));
  }
  auto grads = gradients.find(&g);
  if (grads == gradients.end()) return;
  for (Graph* og : grads->second) {
    for (size_t i = 0; i < og->activations.size(); ++i) {
      auto it = replaced.find(og->activations[i]);
      if (it == replaced.end()) continue;
      setActivation(m, *og, i, it->second);
    }
  }
}

// The graphs that stay after inlining, and the ops they will hold. A graph
// stays when no inlinable call names it (main, a graph never called), or when a
// graph that stays refers to it otherwise: a repeat, a conditional, a call that
// cannot be inlined or `grad_of`, in its own body or in a body inlined into it
// (inlined callees carry their references along). A graph only ever called is
// expanded where it is called and erased, never expanded on its own. Linear: each
// graph is walked at most twice (as one that stays, as one inlined into another).
struct InlinePlan {
  std::vector<Graph*> staying;  // callees first, main last
  std::unordered_set<const Graph*> erased;
};

InlinePlan planInline(Module& m) {
  std::unordered_set<const Graph*> called;  // named by an inlinable call somewhere
  for (Graph* g : graphsCalleesFirst(m))
    forEachOp(*g, [&](const Op& op) {
      if (op.code == OpCode::Call && inlinable(op)) called.insert(op.callees[0].graph);
    });
  std::unordered_set<const Graph*> stays, inlined;
  std::vector<const Graph*> work;  // graphs whose references are to be followed
  auto keep = [&](const Graph* g) {
    if (stays.insert(g).second) work.push_back(g);
  };
  for (Graph* g : graphsCalleesFirst(m))
    if (!called.count(g)) keep(g);
  while (!work.empty()) {
    const Graph* g = work.back();
    work.pop_back();
    if (stays.count(g) && g->gradOf) keep(g->gradOf);
    forEachOp(*g, [&](const Op& op) {
      const bool inlined_ = op.code == OpCode::Call && inlinable(op);
      for (const CalleeRef& k : op.callees) {
        if (!inlined_) keep(k.graph);
        else if (inlined.insert(k.graph).second) work.push_back(k.graph);
      }
    });
  }
  InlinePlan plan;
  for (Graph* g : graphsCalleesFirst(m)) {
    if (stays.count(g)) plan.staying.push_back(g);
    else plan.erased.insert(g);
  }
  return plan;
}

// The gradient graphs of each graph (Graph::gradOf): inlining adds no graph nor grad_of.
std::unordered_map<const Graph*, std::vector<Graph*>> gradientsOf(const Module& m) {
  std::unordered_map<const Graph*, std::vector<Graph*>> gradients;
  for (const auto& g : m.graphs)
    if (g->gradOf) gradients[g->gradOf].push_back(g.get());
  return gradients;
}

}  // namespace

bool inlineSelectedCalls(Module& m, Graph& g, const std::function<bool(const Op&)>& select, DiagnosticEngine& diags,
                         uint64_t& opsLeft) {
  ExpandedSize sizes;
  std::unordered_set<const Op*> picked;
  for (const auto& op : g.ops) {
    if (op->code != OpCode::Call || !inlinable(*op) || !select(*op)) continue;
    const Graph& callee = *op->callees[0].graph;
    const uint64_t added = saturatingAdd(sizes.of(callee), callee.params.size() + callee.returns.size());
    if (added > opsLeft) continue;
    opsLeft -= added;
    picked.insert(op.get());
  }
  if (picked.empty()) return false;
  WrittenParams written;
  inlineCallsIn(m, g, diags, written, gradientsOf(m), [&](const Op& op) { return picked.count(&op) > 0; });
  return true;
}

LogicalResult runInline(Module& m, PassContext& ctx) {
  InlinePlan plan = planInline(m);
  // What the graphs that stay will hold, checked before anything changes: a chain
  // of graphs each calling the next twice doubles per level.
  ExpandedSize sizes;
  uint64_t total = 0;
  for (const Graph* g : plan.staying) {
    total = saturatingAdd(total, sizes.of(*g));
    if (total <= kMaxInlinedOps) continue;
    const Op* at = nullptr;
    for (const auto& op : g->ops)
      if (!at && op->code == OpCode::Call && inlinable(*op)) at = op.get();
    ctx.diags.fail(at ? at->loc : g->loc,
                   "inline: inlining the calls of @" + (g->isMain ? std::string("main") : g->name) +
                       " would make the module " +
                       (total == UINT64_MAX ? std::string("2^64 ops or more") : std::to_string(total) + " ops") +
                       ", more than the limit of " + std::to_string(kMaxInlinedOps));
  }
  WrittenParams written;
  const auto gradients = gradientsOf(m);
  for (Graph* g : plan.staying) inlineCallsIn(m, *g, ctx.diags, written, gradients);
  eraseGraphs(m, plan.erased);  // at once: one erase per graph is quadratic in the graph count
  return success();
}

}  // namespace pir::passes
