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

// Inlines `call` into its graph. False (and nothing changed) when the call
// cannot be inlined (an argument that is not a value or data literal).
bool inlineCall(Module& m, Op& call, DiagnosticEngine& diags) {
  Graph& caller = *call.parent;
  Graph& callee = *call.callees[0].graph;
  auto args = call.args(0);
  for (const Operand& a : args)
    if (a.kind == Operand::Kind::Resource ||
        (a.kind == Operand::Kind::Literal && (!a.literal || a.literal->kind != Literal::Kind::Data)))
      return false;

  OpBuilder b(m, caller, diags);
  b.setInsertionPoint(&call);
  b.setLoc(call.loc);
  IRMapping map;
  std::unordered_set<const Value*> fresh;  // values this inlining creates
  auto copyOf = [&](Value* v, const std::string& name) {
    Value* c = b.create1(OpCode::Identity, {v}, {}, name);
    markGenerated(*c->def);
    fresh.insert(c);
    return c;
  };

  const std::vector<bool> written = paramsWrittenInPlace(callee);
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

  // The value standing for each result: fresh, and distinct per result.
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

  struct Name {
    std::string text;
    bool generated;
  };
  std::vector<Name> names;
  for (size_t j = 0; j < call.results.size(); ++j) {
    replaceAllUsesWith(m, call.results[j], replacement[j]);
    names.push_back({call.results[j]->name, call.results[j]->generatedName});
  }
  eraseOp(m, call);
  for (size_t j = 0; j < names.size(); ++j) {
    renameValue(m, *replacement[j], names[j].text);
    replacement[j]->generatedName = names[j].generated;  // a value of this inlining: no journal needed
  }
  return true;
}

bool referenced(const Module& m, const Graph& g) {
  bool found = false;
  auto scan = [&](const Graph& h) {
    forEachOp(h, [&](const Op& op) {
      for (const CalleeRef& k : op.callees) found = found || k.graph == &g;
    });
    found = found || h.gradOf == &g;
  };
  for (const auto& h : m.graphs) scan(*h);
  scan(*m.main);
  return found;
}

}  // namespace

bool runInline(Module& m, PassContext& ctx) {
  std::vector<const Graph*> called;
  for (Graph* g : graphsCalleesFirst(m)) {
    std::vector<Op*> calls;
    for (auto& op : g->ops)
      if (op->code == OpCode::Call) calls.push_back(op.get());
    for (Op* call : calls) {
      called.push_back(call->callees[0].graph);
      inlineCall(m, *call, ctx.diags);
    }
  }
  // Callees left without callers; erasing one may free another (a repeat body
  // it referred to), so repeat until nothing changes.
  for (bool erased = true; erased;) {
    erased = false;
    for (size_t i = 0; i < called.size(); ++i) {
      const Graph* g = called[i];
      if (!g || !m.findGraph(g->name) || m.findGraph(g->name) != g || referenced(m, *g)) continue;
      // Only graphs whose callers were all inlined: the set `called` holds graphs
      // that had a call, and `referenced` found no call, repeat or grad_of left.
      for (auto& other : called)
        if (other == g) other = nullptr;
      eraseGraph(m, *const_cast<Graph*>(g));
      erased = true;
    }
  }
  return true;
}

}  // namespace pir::passes
