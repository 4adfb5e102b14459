// The autodiff transform (language.md §9). See passes/autodiff.h.
//
// For one forward graph F:
// 1. F must have no in-place op (PopXL cannot differentiate them either).
// 2. Reachability, one forward and one backward sweep over F's ops (linear):
//    a value is "reached" when a gradient edge leads to it from a required
//    input, and "needed" when one leads from it to a provided output. Gradient
//    edges run from a float operand the op differentiates (detach has none) to
//    the op's float results; integer and bool values stop gradients. An op is
//    active when a reached operand feeds a needed result; an active op without
//    a gradient is the error naming it.
// 3. Active calls: their callees are differentiated first (all float outputs
//    provided, reachable float inputs required), once per transform.
// 4. The gradient graph G: `%grad.NAME` inputs, then the active ops in reverse
//    program order, each emitting its rule (passes/grad_rules.cpp); gradient
//    contributions to one value are added up as they arrive. A forward value a
//    rule uses becomes an activation input of G on first use (forward
//    constants are copied instead).
// 5. Activations that are neither inputs nor outputs of F become outputs of F
//    (after the existing ones), and every call of F gets the new results.
//
// Everything is linear in the size of F and G: values are indexed by their
// dense Value::id, never looked up by name.
#include "passes/autodiff.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/infer.h"
#include "ir/internal_error.h"
#include "ir/op_attrs.h"
#include "ir/rewriter.h"
#include "ir/stack.h"
#include "ir/suggest.h"
#include "passes/grad_rules.h"

namespace pir {
namespace {

using ad::GradContext;

struct GradInfo {
  Graph* grad = nullptr;
  GradContext::CalleeGrad callee;
  // Output index of each forward value that F returns (by Value::id), -1 otherwise.
  std::vector<int> outputIndexOf;
};

bool isFloatValue(const Value* v) { return isFloat(v->type->dtype); }

// A gradient edge from operand i of `op` to its float results.
bool gradientEdge(const Op& op, size_t i) {
  const Operand& o = op.operands[i];
  if (o.kind() != Operand::Kind::Value || !isFloatValue(o.value())) return false;
  if (op.code == OpCode::Detach) return false;
  return ad::operandDifferentiable(op, i);
}

std::string noGradientMessage(const Op& op) {
  std::string name(op.info().name);
  if (op.code == OpCode::Repeat) return "repeat has no gradient (as in PopXL)";
  // The differentiable collectives have a gradient for some reductions only (ad::hasGradient).
  if (op.code == OpCode::AllReduce || op.code == OpCode::ReduceScatter)
    return name + " {op = " + std::string(enumWord(pir::attrs::View<pir::attrs::ops(OpCode::AllReduce, OpCode::ReduceScatter)>{op}.op())) +
           "} has no gradient";
  return name + " has no gradient";
}

class Transform {
 public:
  Transform(Module& m, DiagnosticEngine& diags, SourceLoc directiveLoc) : m_(m), diags_(diags), loc_(directiveLoc) {}

  // Differentiates `fwd`: `provided` are indices of outputs returned as values
  // (never literals: callers leave those out), `required` parameter indices
  // (nullopt: every float parameter a gradient can reach).
  GradInfo& differentiate(Graph& fwd, const std::string& gradName, std::vector<size_t> provided,
                          std::optional<std::vector<size_t>> required);
  // Then: puts each copy made for new outputs right after its original (after its
  // callees, before its callers and before the gradient graph that names it).
  void placeCopies();

  [[noreturn]] void fail(SourceLoc at, std::string msg) {
    std::vector<Note> notes;
    if (loc_.valid() && (at.line != loc_.line || at.file != loc_.file)) notes.push_back({loc_, "differentiating @" + root_ + " here"});
    diags_.fail(at, "autodiff: " + std::move(msg), std::move(notes));
  }
  std::string root_;
  std::string rootGradName_;
  const Graph* rootFwd_ = nullptr;  // the directive's graph: no other graph may take this name
  // `preferred`, unless it is the directive's gradient graph name.
  std::string graphName(const std::string& preferred) const {
    return preferred == rootGradName_ ? preferred + ".1" : preferred;
  }

 private:
  struct Reach {
    std::vector<int> from;  // by value id: the required parameter index reaching it, or -1
    std::vector<int> to;    // by value id: the provided output index it reaches, or -1
  };
  Reach analyse(Graph& fwd, const std::vector<size_t>& provided, const std::vector<size_t>& required,
                std::vector<Op*>& ops);
  bool active(const Op& op, const Reach& r) const;
  std::vector<size_t> defaultRequired(Graph& fwd, const std::vector<size_t>& provided);
  void stitch(Graph& fwd, const std::vector<Value*>& activations);
  void appendCallResults(Graph& caller, Graph& callee);

  Module& m_;
  DiagnosticEngine& diags_;
  SourceLoc loc_;
  const GradContext::ConditionalGrad& prepareConditional(const Op& op);
  void growResults(Graph& caller, Op& op, const Graph& callee);
  void redirect(Op& call, Graph* copy);
  std::unordered_map<const Graph*, Graph*> copies_;  // callee -> the copy that took its activations
  std::unordered_set<const Graph*> ownCopies_;       // graphs this transform cloned
  // Copies that go right after their original, placed in one reorder at the end
  // (placeCopies): a move per copy renumbers every graph, quadratic in a chain.
  std::vector<std::pair<const Graph*, Graph*>> placeAfter_;

  std::unordered_map<const Graph*, std::shared_ptr<GradInfo>> done_;
  std::unordered_map<const Op*, GradContext::ConditionalGrad> conditionals_;
  friend class RuleContext;
};

// ---- the rule context ------------------------------------------------------------

class RuleContext final : public GradContext {
 public:
  RuleContext(Transform& t, OpBuilder& b, Graph& grad, const Op& op, std::vector<Value*>& actMap,
              std::vector<Value*>& acts, std::vector<Value*>& gradOf, const std::vector<int>& from)
      : GradContext(b, op), t_(t), grad_(grad), actMap_(actMap), acts_(acts), gradOf_(gradOf), from_(from) {}

  Operand in(size_t i) override {
    const Operand& o = op.operands[i];
    if (o.kind() != Operand::Kind::Value) return o;
    return Operand::of(activation(o.value()));
  }
  Value* out(size_t k) override { return activation(op.results[k]); }
  Value* grad(size_t k) override { return gradOf_[op.results[k]->id]; }
  bool wants(size_t i) const override {
    return gradientEdge(op, i) && from_[op.operands[i].value()->id] >= 0;
  }
  void give(size_t i, Value* g) override {
    if (!wants(i)) return;
    const Value* fv = op.operands[i].value();
    if (!(g->type == fv->type))
      internalError("autodiff: the " + std::string(op.info().name) + " rule gave " + g->type->str() +
                             " for operand " + std::to_string(i) + " of type " + fv->type->str());
    Value*& acc = gradOf_[fv->id];
    acc = acc ? b.create1(OpCode::Add, {acc, g}) : g;
  }
  const CalleeGrad& calleeGrad(const Graph& callee) override { return t_.done_.at(&callee)->callee; }
  const ConditionalGrad& conditionalGrad(const Op& cond) override { return t_.conditionals_.at(&cond); }
  Operand callSiteActivation(const Op& call, size_t calleeIndex, const Value* a) override {
    const Graph& callee = *call.callees[calleeIndex].graph;
    const CalleeRef& ref = call.callees[calleeIndex];
    if (a->kind == Value::Kind::Param) {
      for (size_t j = 0; j < callee.params.size(); ++j)
        if (callee.params[j] == a) return in(ref.firstOperand + j);
    }
    const GradInfo& info = *t_.done_.at(&callee);
    int k = a->id < info.outputIndexOf.size() ? info.outputIndexOf[a->id] : -1;
    if (k < 0) internalError("autodiff: activation %" + a->name + " of @" + callee.name + " is not returned");
    return Operand::of(out(static_cast<size_t>(k)));
  }

  // The gradient-graph value standing for forward value `v`.
  Value* activation(Value* v) {
    Value*& a = actMap_[v->id];
    if (a) return a;
    if (v->kind == Value::Kind::Const && v->def) {
      // A constant is copied, not passed in: it needs no call-site binding.
      IRMapping map;
      Op* c = b.clone(*v->def, map);
      a = c->results[0];
      return a;
    }
    a = addParam(b.module(), grad_, uniqueName(grad_, v->name), v->type);
    acts_.push_back(v);
    return a;
  }

 private:
  Transform& t_;
  Graph& grad_;                    // being built
  std::vector<Value*>& actMap_;    // by forward value id: its stand-in in grad_
  std::vector<Value*>& acts_;      // forward values of grad_'s activation inputs, in order
  std::vector<Value*>& gradOf_;    // by forward value id: its gradient so far
  const std::vector<int>& from_;   // by forward value id: reached from a required input (>= 0)
};

// ---- analysis -----------------------------------------------------------------------

Transform::Reach Transform::analyse(Graph& fwd, const std::vector<size_t>& provided,
                                    const std::vector<size_t>& required, std::vector<Op*>& ops) {
  ops.clear();
  forEachOp(fwd, [&](Op& op) { ops.push_back(&op); });
  Reach r;
  r.from.assign(fwd.values.size(), -1);
  r.to.assign(fwd.values.size(), -1);
  for (size_t j : required) r.from[fwd.params[j]->id] = static_cast<int>(j);
  for (Op* op : ops) {
    int origin = -1;
    for (size_t i = 0; i < op->operands.size() && origin < 0; ++i)
      if (gradientEdge(*op, i)) origin = r.from[op->operands[i].value()->id];
    if (origin < 0) continue;
    for (Value* res : op->results)
      if (isFloatValue(res) && r.from[res->id] < 0) r.from[res->id] = origin;
  }
  for (size_t k : provided)
    if (fwd.returns[k].kind() == Operand::Kind::Value && r.to[fwd.returns[k].value()->id] < 0)
      r.to[fwd.returns[k].value()->id] = static_cast<int>(k);
  for (size_t n = ops.size(); n-- > 0;) {
    const Op& op = *ops[n];
    int target = -1;
    for (Value* res : op.results)
      if (isFloatValue(res) && r.to[res->id] >= 0) {
        target = r.to[res->id];
        break;
      }
    if (target < 0) continue;
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (gradientEdge(op, i) && r.to[op.operands[i].value()->id] < 0) r.to[op.operands[i].value()->id] = target;
  }
  return r;
}

bool Transform::active(const Op& op, const Reach& r) const {
  bool in = false, out = false;
  for (size_t i = 0; i < op.operands.size() && !in; ++i) in = gradientEdge(op, i) && r.from[op.operands[i].value()->id] >= 0;
  if (!in) return false;
  for (const Value* res : op.results) out = out || (isFloatValue(res) && r.to[res->id] >= 0);
  return out;
}

std::vector<size_t> Transform::defaultRequired(Graph& fwd, const std::vector<size_t>& provided) {
  std::vector<size_t> all;
  for (size_t j = 0; j < fwd.params.size(); ++j)
    if (isFloatValue(fwd.params[j])) all.push_back(j);
  std::vector<Op*> ops;
  Reach r = analyse(fwd, provided, all, ops);
  std::vector<size_t> req;
  for (size_t j : all)
    if (r.to[fwd.params[j]->id] >= 0) req.push_back(j);
  return req;
}

// ---- stitching ------------------------------------------------------------------------

void Transform::growResults(Graph& caller, Op& op, const Graph& callee) {
  while (op.results.size() < callee.outputTypes.size()) appendResult(m_, op, callee.outputTypes[op.results.size()]);
}

void Transform::appendCallResults(Graph& caller, Graph& callee) {
  forEachOp(caller, [&](Op& op) {
    for (const CalleeRef& ref : op.callees) {
      if (ref.graph != &callee) continue;
      if (op.code != OpCode::Call)
        fail(op.loc, "@" + callee.name + " is used by " + std::string(op.info().name) +
                         " here; its activations cannot be added to its outputs (only `call` sites can take them)");
      growResults(caller, op, callee);
    }
  });
}

void Transform::redirect(Op& call, Graph* copy) {
  setCallee(m_, call, 0, *copy);
  growResults(*call.parent, call, *copy);
}

void Transform::stitch(Graph& fwd, const std::vector<Value*>& activations) {
  // A copy this transform made has no caller yet: the calls redirected to it
  // later (redirect) and the conditional gradients that call it take its outputs
  // as they are then. So only the directive's graph has callers to grow, and the
  // module is scanned once per transform, not once per differentiated graph.
  std::vector<char> available(fwd.values.size(), 0);
  for (const Value* p : fwd.params) available[p->id] = 1;
  for (const Operand& o : fwd.returns)
    if (o.kind() == Operand::Kind::Value) available[o.value()->id] = 1;
  bool added = false;
  for (Value* a : activations) {
    if (available[a->id]) continue;
    available[a->id] = 1;
    addReturn(m_, fwd, Operand::of(a));
    added = true;
  }
  if (!added || ownCopies_.count(&fwd)) return;
  for (auto& g : m_.graphs)
    if (g.get() != &fwd) appendCallResults(*g, fwd);
  appendCallResults(*m_.main, fwd);
}

void Transform::placeCopies() {
  if (placeAfter_.empty()) return;
  std::unordered_map<const Graph*, Graph*> after(placeAfter_.begin(), placeAfter_.end());
  std::unordered_set<const Graph*> placed;
  for (const auto& [original, copy] : placeAfter_) placed.insert(copy);
  std::vector<Graph*> order;
  order.reserve(m_.graphs.size());
  for (const auto& g : m_.graphs) {
    if (placed.count(g.get())) continue;
    order.push_back(g.get());  // each graph is differentiated once: at most one copy follows it
    if (auto it = after.find(g.get()); it != after.end()) order.push_back(it->second);
  }
  reorderGraphs(m_, order);
}

// ---- the transform ------------------------------------------------------------------------

GradInfo& Transform::differentiate(Graph& fwd, const std::string& gradName, std::vector<size_t> provided,
                                   std::optional<std::vector<size_t>> requiredOpt) {
  // Callees are differentiated first, one level of recursion per nested call.
  if (stackNearlyExhausted())
    fail(loc_, "calls nest too deeply below @" + root_ + " to differentiate (at @" + fwd.name +
                   ", the stack is spent)");
  forEachOp(fwd, [&](Op& op) {
    if (op.info().has(F_INPLACE))
      fail(op.loc, "@" + fwd.name + " contains the in-place op " + std::string(op.info().name) +
                       "; graphs with in-place ops cannot be differentiated");
  });
  std::vector<size_t> required = requiredOpt ? *requiredOpt : defaultRequired(fwd, provided);

  // Callees first: an active call needs its callee's gradient graph, and
  // differentiating it adds results to the call (so analyse again after).
  std::vector<Op*> ops;
  Reach reach = analyse(fwd, provided, required, ops);
  for (Op* op : ops) {
    if (!active(*op, reach)) continue;
    if (!ad::hasGradient(*op)) {
      const Value* src = nullptr;
      const Value* dst = nullptr;
      for (size_t i = 0; i < op->operands.size() && !src; ++i)
        if (gradientEdge(*op, i) && reach.from[op->operands[i].value()->id] >= 0)
          src = fwd.params[reach.from[op->operands[i].value()->id]];
      for (const Value* res : op->results)
        if (!dst && isFloatValue(res) && reach.to[res->id] >= 0) dst = fwd.returns[reach.to[res->id]].value();
      std::string msg = noGradientMessage(*op) + ", and it is on the path from %" + src->name + " to %" + dst->name;
      if (op->code == OpCode::Repeat)
        msg += "; differentiate the body (autodiff @" + op->callees[0].graph->name +
               ") and call its gradient once per iteration";
      fail(op->loc, msg);
    }
    if (op->code == OpCode::Call) {
      Graph& callee = *op->callees[0].graph;
      if (!done_.count(&callee)) {
        std::vector<size_t> outs;
        for (size_t k = 0; k < callee.returns.size(); ++k)
          if (callee.returns[k].kind() == Operand::Kind::Value && isFloat(callee.outputTypes[k].dtype)) outs.push_back(k);
        differentiate(callee, graphName(callee.name + "_grad"), outs, std::nullopt);
      }
      if (auto it = copies_.find(&callee); it != copies_.end()) redirect(*op, it->second);
    }
    if (op->code == OpCode::Conditional && !conditionals_.count(op)) prepareConditional(*op);
  }
  reach = analyse(fwd, provided, required, ops);

  Graph* grad = createGraph(m_, gradName, loc_);
  OpBuilder b(m_, *grad, diags_);
  b.setLoc(loc_);
  std::vector<Value*> actMap(fwd.values.size(), nullptr), acts, gradOf(fwd.values.size(), nullptr);
  for (size_t k : provided) {
    const Value* y = fwd.returns[k].value();
    Value* p = addParam(m_, *grad, uniqueName(*grad, "grad." + y->name), y->type);
    Value*& acc = gradOf[y->id];
    acc = acc ? b.create1(OpCode::Add, {acc, p}) : p;
  }
  for (size_t n = ops.size(); n-- > 0;) {
    const Op& op = *ops[n];
    if (!active(op, reach)) continue;
    bool anyGrad = false;
    for (const Value* res : op.results) anyGrad = anyGrad || gradOf[res->id];
    if (!anyGrad) continue;
    ad::GradRule rule = ad::gradRule(op.code);
    if (!rule) continue;  // a zero gradient
    b.setLoc(op.loc);
    RuleContext ctx(*this, b, *grad, op, actMap, acts, gradOf, reach.from);
    rule(ctx);
  }
  b.setLoc(loc_);
  std::vector<Operand> outs;
  std::vector<size_t> requiredOut;
  for (size_t j : required) {
    Value* p = fwd.params[j];
    Value* g = gradOf[p->id];
    if (!g) g = b.constant(p->type, {0.0});
    outs.push_back(Operand::of(g));
  }
  setReturns(m_, *grad, std::move(outs));
  // A callee keeps its signature (it may be, now or later, a repeat body or a
  // branch): when it needs new outputs, a copy takes them and its calls in the
  // graphs being differentiated are redirected to the copy.
  Graph* target = &fwd;
  const bool own = ownCopies_.count(&fwd) != 0;
  if (&fwd != rootFwd_ && !own) {
    bool needsOutputs = false;
    std::vector<char> available(fwd.values.size(), 0);
    for (const Value* p : fwd.params) available[p->id] = 1;
    for (const Operand& o : fwd.returns)
      if (o.kind() == Operand::Kind::Value) available[o.value()->id] = 1;
    for (const Value* a : acts) needsOutputs = needsOutputs || !available[a->id];
    if (needsOutputs) {
      IRMapping map;
      target = cloneGraph(m_, fwd, graphName(fwd.name + "_fwd"), &map);
      placeAfter_.emplace_back(&fwd, target);  // right after the original, at the end
      for (Value*& a : acts) a = map.lookup(a);
      copies_[&fwd] = target;
      ownCopies_.insert(target);
    }
  }
  setGradOf(m_, *grad, target, acts);
  stitch(*target, acts);

  auto info = std::make_shared<GradInfo>();
  info->grad = grad;
  info->callee.grad = grad;
  info->callee.providedOutputs = provided;
  info->callee.requiredParams = required;
  info->outputIndexOf.assign(target->values.size(), -1);
  for (size_t k = 0; k < target->returns.size(); ++k)
    if (target->returns[k].kind() == Operand::Kind::Value && info->outputIndexOf[target->returns[k].value()->id] < 0)
      info->outputIndexOf[target->returns[k].value()->id] = static_cast<int>(k);
  GradInfo& ref = *info;
  done_[&fwd] = info;
  done_[target] = std::move(info);
  return ref;
}

// Gradient branches of a conditional: for branch B, a differentiated copy B_fwd
// and a graph B_cond_grad(grads..., all conditional arguments...) that calls
// B_fwd on its own arguments (recomputing the activations) and then B_fwd's
// gradient, returning a gradient (or zeros) for every float argument.
const GradContext::ConditionalGrad& Transform::prepareConditional(const Op& op) {
  GradContext::ConditionalGrad info;
  for (size_t k = 0; k < op.results.size(); ++k)
    if (isFloatValue(op.results[k])) info.outputs.push_back(k);
  for (size_t i = 1; i < op.operands.size(); ++i)
    if (op.operands[i].isTensor() && isFloat(op.operands[i].type().dtype)) info.operands.push_back(i);
  for (size_t br = 0; br < 2; ++br) {
    const CalleeRef& ref = op.callees[br];
    Graph& branch = *ref.graph;
    Graph* copy = cloneGraph(m_, branch, graphName(branch.name + "_fwd"));
    ownCopies_.insert(copy);
    // An output the branch returns as a literal is a constant: no gradient flows
    // back from it, so it is not provided to the branch's gradient.
    std::vector<size_t> provided;
    for (size_t k : info.outputs)
      if (copy->returns[k].kind() == Operand::Kind::Value) provided.push_back(k);
    GradInfo& gi = differentiate(*copy, graphName(copy->name + "_grad"), std::move(provided), std::nullopt);
    Graph* w = createGraph(m_, graphName(branch.name + "_cond_grad"), loc_);
    std::vector<Value*> grads;
    for (size_t k : info.outputs) grads.push_back(addParam(m_, *w, uniqueName(*w, "grad." + op.results[k]->name), op.results[k]->type));
    std::vector<Value*> args(op.operands.size(), nullptr);
    for (size_t i = 1; i < op.operands.size(); ++i) {
      const bool own = i >= ref.firstOperand && i < ref.firstOperand + ref.numArgs;
      std::string name = own ? copy->params[i - ref.firstOperand]->name.str() : "arg" + std::to_string(i);
      args[i] = addParam(m_, *w, uniqueName(*w, name), op.operands[i].type());
    }
    OpBuilder b(m_, *w, diags_);
    b.setLoc(op.loc);
    std::vector<Operand> ownArgs;
    for (size_t j = 0; j < ref.numArgs; ++j) ownArgs.push_back(Operand::of(args[ref.firstOperand + j]));
    Op* fwdCall = b.createCall(*copy, ownArgs);
    std::vector<Operand> gradArgs;
    for (size_t k : gi.callee.providedOutputs) {
      size_t pos = static_cast<size_t>(std::find(info.outputs.begin(), info.outputs.end(), k) - info.outputs.begin());
      gradArgs.push_back(Operand::of(grads[pos]));
    }
    for (const Value* a : gi.grad->activations) {
      if (a->kind == Value::Kind::Param) {
        size_t j = static_cast<size_t>(std::find(copy->params.begin(), copy->params.end(), a) - copy->params.begin());
        gradArgs.push_back(ownArgs[j]);
      } else {
        gradArgs.push_back(Operand::of(fwdCall->results[static_cast<size_t>(gi.outputIndexOf[a->id])]));
      }
    }
    Op* gradCall = b.createCall(*gi.grad, gradArgs);
    std::vector<Operand> outs;
    for (size_t i : info.operands) {
      Value* g = nullptr;
      if (i >= ref.firstOperand && i < ref.firstOperand + ref.numArgs) {
        const size_t param = i - ref.firstOperand;
        for (size_t j = 0; j < gi.callee.requiredParams.size(); ++j)
          if (gi.callee.requiredParams[j] == param) g = gradCall->results[j];
      }
      if (!g) g = b.constant(op.operands[i].type(), {0.0});
      outs.push_back(Operand::of(g));
    }
    setReturns(m_, *w, std::move(outs));
    info.branch[br] = w;
  }
  return conditionals_[&op] = std::move(info);
}

// How deep graph references (calls, repeats, branches) nest below `g`: the
// recursion depth of differentiate at most. Iterative, memoized per graph; a
// graph met again on its own path (a cycle the verifier would reject) ends it.
size_t callNestingBelow(const Graph& g) {
  std::unordered_map<const Graph*, size_t> depth;
  std::unordered_set<const Graph*> entered;
  std::vector<std::pair<const Graph*, bool>> todo{{&g, false}};
  while (!todo.empty()) {
    auto [h, expanded] = todo.back();
    todo.pop_back();
    if (depth.count(h) || (!expanded && !entered.insert(h).second)) continue;
    const std::vector<Graph*> callees = calleesOf(*h);
    if (!expanded) {
      todo.push_back({h, true});
      for (const Graph* c : callees)
        if (!depth.count(c)) todo.push_back({c, false});
      continue;
    }
    size_t d = 0;
    for (const Graph* c : callees) d = std::max(d, (depth.count(c) ? depth[c] : 0) + 1);
    depth[h] = d;
  }
  return depth.at(&g);
}

// Nesting the caller's stack takes (8 MB on a main thread; frames are larger under
// sanitizers); deeper runs on a runWithLargeStack thread.
constexpr size_t kNestingOnTheCallersStack = 500;

// The values named by `key` (a list of %names) of the directive.
std::vector<std::pair<std::string, SourceLoc>> namesOf(const AttrDict& attrs, const char* key, Transform& t,
                                                       SourceLoc directive) {
  std::vector<std::pair<std::string, SourceLoc>> out;
  const Attr* a = attrs.find(key);
  if (!a) return out;
  if (a->kind != Attr::Kind::List) t.fail(a->loc.valid() ? a->loc : directive, std::string(key) + " must be a list of %values");
  for (const Attr& item : a->items) {
    if (item.kind != Attr::Kind::Value)
      t.fail(item.loc.valid() ? item.loc : directive, std::string(key) + " must be a list of %values");
    out.emplace_back(item.s, item.loc.valid() ? item.loc : directive);
  }
  return out;
}

}  // namespace

bool autodiff(Module& m, Graph& fwd, const std::string& gradName, const AttrDict& directiveAttrs, SourceLoc loc,
              DiagnosticEngine& diags) {
  Transform t(m, diags, loc);
  t.root_ = fwd.name;
  t.rootGradName_ = gradName;
  t.rootFwd_ = &fwd;
  try {
    for (size_t i = 0; i < directiveAttrs.entries.size(); ++i) {
      const auto& [key, value] = directiveAttrs.entries[i];
      if (key == "grads_provided" || key == "grads_required") continue;
      SourceLoc at = directiveAttrs.keyLoc(i).valid() ? directiveAttrs.keyLoc(i) : value.loc.valid() ? value.loc : loc;
      t.fail(at, "unknown directive attribute '" + key + "' (expected grads_provided, grads_required)" +
                     didYouMean(key, std::vector<std::string>{"grads_provided", "grads_required"}));
    }
    // The names a misspelt entry most likely means: the outputs, or the inputs.
    auto suggestAmong = [&](const std::string& name, bool outputs) {
      std::vector<std::string> names;
      if (outputs) {
        for (const Operand& r : fwd.returns)
          if (r.kind() == Operand::Kind::Value) names.push_back(r.value()->name);
      } else {
        for (const Value* p : fwd.params) names.push_back(p->name);
      }
      std::string suffix = didYouMean(name, names, "%");
      return suffix.empty() ? suggestValue(fwd, name) : suffix;
    };
    std::vector<size_t> provided;
    if (directiveAttrs.find("grads_provided")) {
      for (auto& [name, at] : namesOf(directiveAttrs, "grads_provided", t, loc)) {
        const Value* v = fwd.lookup(name);
        if (!v) t.fail(at, "grads_provided: @" + fwd.name + " has no value %" + name + suggestAmong(name, true));
        size_t k = 0;
        while (k < fwd.returns.size() && !(fwd.returns[k].kind() == Operand::Kind::Value && fwd.returns[k].value() == v)) ++k;
        if (k == fwd.returns.size()) t.fail(at, "grads_provided: %" + name + " is not an output of @" + fwd.name);
        if (!isFloat(v->type->dtype)) t.fail(at, "grads_provided: %" + name + " is " + v->type->str() + ", not a float tensor");
        if (std::find(provided.begin(), provided.end(), k) != provided.end())
          t.fail(at, "grads_provided: %" + name + " is listed twice");
        provided.push_back(k);
      }
    } else {
      for (size_t k = 0; k < fwd.returns.size(); ++k)
        if (fwd.returns[k].kind() == Operand::Kind::Value && isFloat(fwd.outputTypes[k].dtype)) {
          bool dup = false;
          for (size_t j : provided) dup = dup || fwd.returns[j].value() == fwd.returns[k].value();
          if (!dup) provided.push_back(k);
        }
    }
    std::optional<std::vector<size_t>> required;
    if (directiveAttrs.find("grads_required")) {
      required.emplace();
      for (auto& [name, at] : namesOf(directiveAttrs, "grads_required", t, loc)) {
        const Value* v = fwd.lookup(name);
        if (!v) t.fail(at, "grads_required: @" + fwd.name + " has no value %" + name + suggestAmong(name, false));
        auto it = std::find(fwd.params.begin(), fwd.params.end(), v);
        if (it == fwd.params.end()) t.fail(at, "grads_required: %" + name + " is not an input of @" + fwd.name);
        if (!isFloat(v->type->dtype)) t.fail(at, "grads_required: %" + name + " is " + v->type->str() + ", not a float tensor");
        size_t j = static_cast<size_t>(it - fwd.params.begin());
        if (std::find(required->begin(), required->end(), j) != required->end())
          t.fail(at, "grads_required: %" + name + " is listed twice");
        required->push_back(j);
      }
    }
    // Deep call nesting recurses as deep: then on a thread with a large stack.
    auto run = [&] {
      t.differentiate(fwd, gradName, std::move(provided), std::move(required));
      t.placeCopies();
    };
    if (callNestingBelow(fwd) > kNestingOnTheCallersStack) runWithLargeStack(run);
    else run();
  } catch (const CompileError&) {
    return false;
  }
  return true;
}

}  // namespace pir
