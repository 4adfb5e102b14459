// inline: replaces every `call` by a copy of the callee's body.
//
// Graphs are done callee-first (Module::graphs is in definition order), so a
// body copied into its caller has no calls left. `repeat` and `conditional`
// are not inlined (their bodies run a number of times / one of two ways).
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
// A callee that was called before and has no caller left is erased, unless a
// gradient graph names it (`grad_of`).
#include <memory>
#include <unordered_map>
#include <unordered_set>

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
  for (auto& inner : op.region)
    for (Value* v : inner->results) v->generatedName = true;
}

// A value holding the literal `o` (a `const`, inserted at the builder's point).
Value* materializeLiteral(OpBuilder& b, const Operand& o, const std::string& name) {
  Value* v = b.constant(o.literalType, o.literal->values, name);
  markGenerated(*v->def);
  return v;
}

// True when every argument of `call` can be bound: a value or a data literal.
bool inlinable(const Op& call) {
  for (const Operand& a : call.args(0))
    if (a.kind == Operand::Kind::Resource ||
        (a.kind == Operand::Kind::Literal && (!a.literal || a.literal->kind != Literal::Kind::Data)))
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

// Appends a copy of the body of `call`'s callee through `b`; returns the value
// standing for each callee output: fresh, and distinct per output.
std::vector<Value*> expandBody(OpBuilder& b, const Op& call, const std::vector<bool>& written) {
  const Graph& callee = *call.callees[0].graph;
  auto args = call.args(0);
  IRMapping map;
  std::unordered_set<const Value*> fresh;  // values this inlining creates
  auto copyOf = [&](Value* v, const std::string& name) {
    Value* c = b.create1(OpCode::Identity, {v}, {}, name);
    markGenerated(*c->def);
    fresh.insert(c);
    return c;
  };
  for (size_t i = 0; i < callee.params.size(); ++i) {
    Value* p = callee.params[i];
    const Operand& a = args[i];
    Value* v = a.kind == Operand::Kind::Literal ? materializeLiteral(b, a, p->name) : a.value;
    if (!p->byRef && written[i]) v = copyOf(v, p->name);
    map.map(p, v);
  }
  for (const auto& op : callee.ops) {
    Op* c = b.clone(*op, map);
    markGenerated(*c);
    for (Value* r : c->results) fresh.insert(r);
    for (auto& inner : c->region)
      for (Value* r : inner->results) fresh.insert(r);
  }
  std::vector<Value*> replacement;
  std::unordered_set<const Value*> rootsTaken;
  for (const Operand& ret : callee.returns) {
    Value* v;
    if (ret.kind == Operand::Kind::Literal) {
      v = copyOf(materializeLiteral(b, ret, ""), "");
    } else {
      v = map.lookupOrSelf(ret.value);
      const Value* root = aliasRoot(v);
      bool ownTensor = fresh.count(root) && root->kind == Value::Kind::Result && !rootsTaken.count(root);
      if (!ownTensor) v = copyOf(v, "");
    }
    rootsTaken.insert(aliasRoot(v));
    replacement.push_back(v);
  }
  return replacement;
}

// Inlines every call of `g` in one journaled rebuild of its op list: the ops
// are taken out and put back in order, each call replaced by its expanded body,
// and later operands (and returns, and activations naming g's values) that
// used a call's result are redirected as they pass. O(size of g + bodies),
// where one replace-all-uses and one erase per call would walk g each time.
void inlineCallsIn(Module& m, Graph& g, DiagnosticEngine& diags, WrittenParams& written,
                   std::vector<const Graph*>& called) {
  bool any = false;
  for (const auto& op : g.ops) any = any || (op->code == OpCode::Call && inlinable(*op));
  if (!any) return;

  std::vector<std::unique_ptr<Op>> old = std::move(g.ops);
  g.ops.clear();
  std::vector<Op*> originalOrder;
  for (const auto& op : old) originalOrder.push_back(op.get());
  auto removed = std::make_shared<std::vector<std::unique_ptr<Op>>>();  // the calls, kept for undo
  m.touch();
  // Undo: every later change has been undone first, so g.ops holds the ops that
  // stayed and `removed` the calls: put them back in the original order.
  m.journal([&g, originalOrder, removed]() {
    std::unordered_map<const Op*, std::unique_ptr<Op>> owned;
    for (auto& op : g.ops) owned.emplace(op.get(), std::move(op));
    for (auto& op : *removed) owned.emplace(op.get(), std::move(op));
    g.ops.clear();
    for (Op* op : originalOrder) g.ops.push_back(std::move(owned.at(op)));
  });

  OpBuilder b(m, g, diags);  // appends
  std::unordered_map<const Value*, Value*> replaced;
  auto redirect = [&](Op& op) {
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind != Operand::Kind::Value) continue;
      auto it = replaced.find(o.value);
      if (it == replaced.end()) continue;
      Operand x = o;
      x.value = it->second;
      setOperand(m, op, i, std::move(x));
    }
  };
  for (auto& owned : old) {
    Op& op = *owned;
    redirect(op);
    for (auto& inner : op.region) redirect(*inner);
    if (op.code != OpCode::Call || !inlinable(op)) {
      g.ops.push_back(std::move(owned));
      continue;
    }
    called.push_back(op.callees[0].graph);
    b.setLoc(op.loc);
    std::vector<Value*> replacement = expandBody(b, op, written.of(*op.callees[0].graph));
    for (size_t j = 0; j < op.results.size() && j < replacement.size(); ++j) {
      Value* r = op.results[j];
      replaced[r] = replacement[j];
      // Detach the call's result (out of scope, no defining op), then give its
      // name to the value standing for it.
      Op* def = r->def;
      const bool inScope = g.scope.find(r->name) == r;
      if (inScope) g.scope.erase(r);
      r->def = nullptr;
      m.journal([&g, r, def, inScope]() {
        r->def = def;
        if (inScope) g.scope.insert(r);
      });
      renameValue(m, *replacement[j], r->name);
      replacement[j]->generatedName = r->generatedName;  // a value of this inlining: no journal needed
    }
    removed->push_back(std::move(owned));
  }
  for (size_t i = 0; i < g.returns.size(); ++i) {
    Operand& o = g.returns[i];
    if (o.kind != Operand::Kind::Value || !replaced.count(o.value)) continue;
    Value* before = o.value;
    o.value = replaced.at(before);
    m.journal([&g, i, before]() { g.returns[i].value = before; });
  }
  for (auto& other : m.graphs) {
    if (other->gradOf != &g) continue;
    Graph* og = other.get();
    for (size_t i = 0; i < og->activations.size(); ++i) {
      auto it = replaced.find(og->activations[i]);
      if (it == replaced.end()) continue;
      Value* before = og->activations[i];
      og->activations[i] = it->second;
      m.journal([og, i, before]() { og->activations[i] = before; });
    }
  }
}

// The graphs some op calls, repeats or branches to, or a gradient graph names.
std::unordered_set<const Graph*> referencedGraphs(const Module& m) {
  std::unordered_set<const Graph*> refs;
  auto scan = [&](const Graph& h) {
    forEachOp(h, [&](const Op& op) {
      for (const CalleeRef& k : op.callees) refs.insert(k.graph);
    });
    if (h.gradOf) refs.insert(h.gradOf);
  };
  for (const auto& h : m.graphs) scan(*h);
  scan(*m.main);
  return refs;
}

}  // namespace

bool runInline(Module& m, PassContext& ctx) {
  std::vector<const Graph*> called;
  WrittenParams written;  // of graphs already done (callees first): final
  for (Graph* g : graphsCalleesFirst(m)) inlineCallsIn(m, *g, ctx.diags, written, called);
  // Callees left without callers (graphs that were called and that no call,
  // repeat, conditional or grad_of names now). Erasing one may free another
  // (a repeat body it referred to), so repeat until nothing changes.
  std::vector<const Graph*> candidates;
  std::unordered_set<const Graph*> seen;
  for (const Graph* g : called)
    if (seen.insert(g).second) candidates.push_back(g);
  for (bool erased = true; erased;) {
    erased = false;
    const std::unordered_set<const Graph*> refs = referencedGraphs(m);
    for (const Graph*& g : candidates) {
      if (!g || refs.count(g)) continue;
      eraseGraph(m, *const_cast<Graph*>(g));
      g = nullptr;
      erased = true;
    }
  }
  return true;
}

}  // namespace pir::passes
