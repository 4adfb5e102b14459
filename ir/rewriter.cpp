// The IR mutation API (ir/rewriter.h). Every function bumps the module's
// generation and, while the module journals, records its inverse.
#include "ir/rewriter.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "ir/checked_math.h"
#include "ir/infer.h"
#include "ir/internal_error.h"
#include "ir/op_attrs.h"
#include "ir/verifier.h"

namespace pir {

// ---- walks and uses -----------------------------------------------------------

void forEachOp(Graph& g, const std::function<void(Op&)>& f) {
  for (auto& op : g.ops) {
    f(*op);
    for (auto& inner : op->region()) f(*inner);
  }
}

void forEachOp(const Graph& g, const std::function<void(const Op&)>& f) {
  for (const auto& op : g.ops) {
    f(*op);
    for (const auto& inner : op->region()) f(*inner);
  }
}

UseMap::UseMap(Graph& g) {
  forEachOp(g, [&](Op& op) {
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.operands[i].kind() == Operand::Kind::Value) uses_[op.operands[i].value()].push_back({&op, unsigned(i)});
  });
  for (size_t i = 0; i < g.returns.size(); ++i)
    if (g.returns[i].kind() == Operand::Kind::Value) uses_[g.returns[i].value()].push_back({nullptr, unsigned(i)});
}

const std::vector<Use>& UseMap::uses(const Value* v) const {
  static const std::vector<Use> none;
  auto it = uses_.find(v);
  return it == uses_.end() ? none : it->second;
}

namespace {

// An op whose row declares `title` with an empty default prints its operand's
// name when the title is empty (print_tensor, ops.md). The name meant is the one
// the operand had when the op was written: when a rewrite gives the op another
// operand (inlining maps a parameter to an argument, a fold replaces a value),
// that name becomes the explicit title, so no pass changes what the program prints.
// Returns the title to pin, or nullopt when there is none to pin.
std::optional<std::string> titleToPin(const Op& op, size_t index, const Value* before, const Value* after) {
  if (index != 0 || !before || before == after || attrs::declOf(op.code, "title").index < 0) return std::nullopt;
  const Attr* title = op.attrs.find("title");
  if (title && !title->s.empty()) return std::nullopt;
  if (after && after->name == before->name) return std::nullopt;
  return before->name;
}

}  // namespace

void setOperand(Module& m, Op& op, size_t index, Operand o) {
  const Value* before = index < op.operands.size() && op.operands[index].kind() == Operand::Kind::Value
                            ? op.operands[index].value() : nullptr;
  if (std::optional<std::string> title =
          titleToPin(op, index, before, o.kind() == Operand::Kind::Value ? o.value() : nullptr)) {
    AttrDict old = op.attrs;
    op.attrs.set("title", Attr::string(std::move(*title)));
    m.journal([&op, old = std::move(old)]() mutable { op.attrs = std::move(old); });
  }
  Operand old = std::move(op.operands.at(index));
  op.operands[index] = std::move(o);
  m.touch();
  m.journal([&op, index, old = std::move(old)]() mutable { op.operands[index] = std::move(old); });
}

void setAttributes(Module& m, Op& op, const AttrDict& attrs) {
  AttrDict old = op.attrs;
  for (const auto& [name, value] : attrs.entries) op.attrs.set(name, value);
  m.touch();
  m.journal([&op, old = std::move(old)]() mutable { op.attrs = std::move(old); });
}

void setOptions(Module& m, const IrOptions& options) {
  IrOptions old = m.options;
  m.options = options;
  m.touch();
  m.journal([&m, old = std::move(old)]() { m.options = old; });
}

size_t replaceAllUsesWith(Module& m, Value* from, Value* to) {
  if (from == to) return 0;
  Graph& g = *from->graph;
  size_t n = 0;
  forEachOp(g, [&](Op& op) {
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.operands[i].kind() == Operand::Kind::Value && op.operands[i].value() == from) {
        Operand o = op.operands[i];
        o.setValue(to);
        setOperand(m, op, i, std::move(o));
        ++n;
      }
  });
  for (size_t i = 0; i < g.returns.size(); ++i)
    if (g.returns[i].kind() == Operand::Kind::Value && g.returns[i].value() == from) {
      Operand old = g.returns[i];
      g.returns[i].setValue(to);
      m.journal(g, [&g, i, old]() { g.returns[i] = old; });
      ++n;
    }
  // Gradient graphs refer to forward values as activations.
  for (auto& other : m.graphs)
    for (size_t i = 0; i < other->activations.size(); ++i)
      if (other->activations[i] == from) {
        Graph* og = other.get();
        og->activations[i] = to;
        m.journal([og, i, from]() { og->activations[i] = from; });
        ++n;
      }
  m.touch();
  return n;
}

// ---- values and names ---------------------------------------------------------------

std::string freshName(Graph& g) {
  std::string name;
  do name = std::to_string(g.nextGeneratedName++);
  while (g.scope.contains(name));
  return name;
}

std::string uniqueName(Graph& g, const std::string& preferred) {
  if (preferred.empty()) return freshName(g);
  if (!g.scope.contains(preferred)) return preferred;
  uint64_t& next = g.nextNameSuffix[preferred];
  for (uint64_t k = std::max<uint64_t>(next, 1);; ++k) {
    std::string n = preferred + "." + std::to_string(k);
    if (!g.scope.contains(n)) {
      next = k + 1;
      return n;
    }
  }
}

namespace {

// newValue for a value whose host memory the caller has already added to
// g.valueCharge (createResults charges an op's results at once). `uniquify`:
// `name` is a preferred name, which the value takes if it is free and
// uniqueName's otherwise (one probe of the scope when it is free); without it
// the value takes `name`, replacing a scope entry of that name.
Value* newChargedValue(Module& m, Graph& g, Value::Kind kind, std::string name, bool generated, SharedType type,
                       SourceLoc loc, bool uniquify = false) {
  auto v = std::make_unique<Value>();
  v->kind = kind;
  v->name = std::move(name);
  v->generatedName = generated;
  v->type = std::move(type);
  v->graph = &g;
  v->id = static_cast<unsigned>(g.values.size());
  v->loc = loc;
  Value* raw = v.get();
  g.values.push_back(std::move(v));
  // After the push: the scope finds values by id.
  if (!uniquify) {
    g.scope.insert(raw);
  } else if (!g.scope.insertIfAbsent(raw)) {
    raw->name = uniqueName(g, raw->name);
    g.scope.insert(raw);
  }
  m.touch();
  // Undo: out of scope; the Value object stays (ids are dense), or is
  // truncated with the main graph's values by Module::rollback.
  m.journal(g, [&g, raw]() { g.scope.erase(raw); });
  return raw;
}

// The type object for a result of `op` typed `t`: that of one of the op's
// first operands when its type is `t` (an elementwise op's result is typed as
// its operands), else that of the value made last in `g` when its type is `t`
// (the results of one op, a run of like ops), else a new one. Only a few
// operands are looked at, so that an op of many results and operands stays linear.
SharedType resultType(const Graph& g, const Op& op, TensorType&& t) {
  constexpr size_t kOperandsTried = 4;
  for (size_t k = 0; k < op.operands.size() && k < kOperandsTried; ++k)
    if (const Value* v = op.operands[k].value(); v && v->type == t) return v->type;
  if (!g.values.empty() && g.values.back()->type == t) return g.values.back()->type;
  return SharedType(std::move(t));
}

}  // namespace

Value* newValue(Module& m, Graph& g, Value::Kind kind, std::string name, bool generated, TensorType type,
                SourceLoc loc) {
  g.valueCharge.add(valueHostBytes());
  try {
    return newChargedValue(m, g, kind, std::move(name), generated, SharedType(std::move(type)), loc);
  } catch (...) {
    g.valueCharge.remove(valueHostBytes());
    throw;
  }
}

void renameValue(Module& m, Value& v, std::string name, bool generated) {
  Graph& g = *v.graph;
  std::string old = v.name;
  bool wasGenerated = v.generatedName;
  g.scope.erase(&v);
  v.name = std::move(name);
  v.generatedName = generated;
  g.scope.insert(&v);
  m.touch();
  m.journal(g, [&g, &v, old, wasGenerated]() {
    g.scope.erase(&v);
    v.name = old;
    v.generatedName = wasGenerated;
    g.scope.insert(&v);
  });
}

// ---- graphs ---------------------------------------------------------------------

namespace {

void renumberGraphs(Module& m) {
  for (size_t i = 0; i < m.graphs.size(); ++i) m.graphs[i]->index = static_cast<unsigned>(i);
}

std::string uniqueGraphName(const Module& m, const std::string& name) {
  if (!m.findGraph(name) && name != "main") return name;
  for (uint64_t k = 1;; ++k) {
    std::string n = name + "." + std::to_string(k);
    if (!m.findGraph(n)) return n;
  }
}

}  // namespace

namespace {

// A copy of `src` for graph `g`: operands and callees mapped through `map`,
// results created in `g` (named like the source's when free) and mapped.
std::unique_ptr<Op> cloneOpInto(Module& m, Graph& g, const Op& src, IRMapping& map, bool keepNames,
                                Op* enclosing = nullptr) {
  auto c = std::make_unique<Op>();
  c->code = src.code;
  c->attrs = src.attrs;
  c->setInit(src.init());
  c->setLabel(src.label());
  c->loc = src.loc;
  c->callees = src.callees;
  c->parent = &g;
  c->setEnclosing(enclosing);
  c->chargeUses(src.operands.size());
  c->operands.reserve(src.operands.size());
  for (const Operand& o : src.operands) {
    Operand x = o;
    if (x.kind() == Operand::Kind::Value) x.setValue(map.lookupOrSelf(x.value()));
    if (std::optional<std::string> title = titleToPin(src, c->operands.size(), o.kind() == Operand::Kind::Value ? o.value() : nullptr,
                                                      x.kind() == Operand::Kind::Value ? x.value() : nullptr))
      c->attrs.set("title", Attr::string(std::move(*title)));
    c->operands.push_back(std::move(x));
  }
  for (const Value* r : src.results) {
    std::string name = r->generatedName && !keepNames ? freshName(g) : uniqueName(g, r->name);
    Value* v = newValue(m, g, r->kind, std::move(name), r->generatedName, r->type, r->loc);
    v->def = c.get();
    v->resultIndex = r->resultIndex;
    c->results.push_back(v);
    map.map(r, v);
  }
  for (const auto& inner : src.region()) c->mutableRegion().push_back(cloneOpInto(m, g, *inner, map, keepNames, c.get()));
  return c;
}

}  // namespace

Graph* createGraph(Module& m, const std::string& name, SourceLoc loc) {
  auto g = std::make_unique<Graph>();
  g->name = uniqueGraphName(m, name);
  g->loc = loc;
  g->hasReturn = true;  // an empty return list until setReturns
  g->outputsWritten = true;
  g->index = static_cast<unsigned>(m.graphs.size());
  Graph* raw = g.get();
  m.graphScope.emplace(raw->name, raw);
  m.graphs.push_back(std::move(g));
  m.touch();
  // Undo: Module::rollback truncates appended graphs.
  return raw;
}

Value* addParam(Module& m, Graph& g, std::string name, TensorType type, bool byRef) {
  Value* v = newValue(m, g, Value::Kind::Param, std::move(name), false, std::move(type), {});
  v->byRef = byRef;
  g.params.push_back(v);
  m.journal(g, [&g]() { g.params.pop_back(); });
  return v;
}

void setReturns(Module& m, Graph& g, std::vector<Operand> returns) {
  std::vector<Operand> oldReturns = std::move(g.returns);
  std::vector<TensorType> oldTypes = std::move(g.outputTypes);
  bool oldHas = g.hasReturn;
  g.returns = std::move(returns);
  g.outputTypes.clear();
  for (const Operand& o : g.returns) g.outputTypes.push_back(o.type());
  g.hasReturn = true;
  g.outputsWritten = true;
  m.touch();
  m.journal(g, [&g, oldReturns = std::move(oldReturns), oldTypes = std::move(oldTypes), oldHas]() mutable {
    g.returns = std::move(oldReturns);
    g.outputTypes = std::move(oldTypes);
    g.hasReturn = oldHas;
  });
}

void addReturn(Module& m, Graph& g, Operand o) {
  g.outputTypes.push_back(o.type());
  g.returns.push_back(std::move(o));
  m.touch();
  m.journal(g, [&g]() {
    g.returns.pop_back();
    g.outputTypes.pop_back();
  });
}

void setGradOf(Module& m, Graph& g, Graph* fwd, std::vector<Value*> activations) {
  Graph* oldFwd = g.gradOf;
  std::vector<Value*> oldActs = std::move(g.activations);
  g.gradOf = fwd;
  g.activations = std::move(activations);
  m.touch();
  m.journal(g, [&g, oldFwd, oldActs = std::move(oldActs)]() mutable {
    g.gradOf = oldFwd;
    g.activations = std::move(oldActs);
  });
}

void eraseGraph(Module& m, Graph& g) { eraseGraphs(m, {&g}); }

void eraseGraphs(Module& m, const std::unordered_set<const Graph*>& graphs) {
  if (graphs.empty()) return;
  for (const Graph* g : graphs)
    if (g->index >= m.graphs.size() || m.graphs[g->index].get() != g)
      internalError("eraseGraph: @" + g->name + " is not in the module");
  // The journal holds the erased graphs (same objects: pointers to them stay valid),
  // each with its position in the list as it was, ascending.
  using Erased = std::vector<std::pair<size_t, std::unique_ptr<Graph>>>;
  auto erased = std::make_shared<Erased>();
  std::vector<std::unique_ptr<Graph>> kept;
  kept.reserve(m.graphs.size() - graphs.size());
  for (size_t i = 0; i < m.graphs.size(); ++i) {
    if (!graphs.count(m.graphs[i].get())) {
      kept.push_back(std::move(m.graphs[i]));
      continue;
    }
    m.graphScope.erase(m.graphs[i]->name);
    erased->emplace_back(i, std::move(m.graphs[i]));
  }
  m.graphs = std::move(kept);
  renumberGraphs(m);
  m.touch();
  m.journal([&m, erased]() {
    // Every later change is undone: m.graphs is the kept list. Merge by position.
    std::vector<std::unique_ptr<Graph>> all;
    all.reserve(m.graphs.size() + erased->size());
    size_t next = 0;
    for (auto& [pos, g] : *erased) {
      while (all.size() < pos) all.push_back(std::move(m.graphs[next++]));
      m.graphScope.emplace(g->name, g.get());
      all.push_back(std::move(g));
    }
    while (next < m.graphs.size()) all.push_back(std::move(m.graphs[next++]));
    m.graphs = std::move(all);
    renumberGraphs(m);
  });
}

void moveGraph(Module& m, Graph& g, size_t index) {
  auto it = std::find_if(m.graphs.begin(), m.graphs.end(), [&](const auto& p) { return p.get() == &g; });
  if (it == m.graphs.end()) internalError("moveGraph: @" + g.name + " is not in the module");
  size_t from = static_cast<size_t>(it - m.graphs.begin());
  std::unique_ptr<Graph> owned = std::move(*it);
  m.graphs.erase(it);
  index = std::min(index, m.graphs.size());
  m.graphs.insert(m.graphs.begin() + static_cast<ptrdiff_t>(index), std::move(owned));
  renumberGraphs(m);
  m.touch();
  m.journal([&m, &g, from]() { moveGraph(m, g, from); });
}

void reorderGraphs(Module& m, const std::vector<Graph*>& order) {
  if (order.size() != m.graphs.size()) internalError("reorderGraphs: not a permutation of the graphs");
  std::vector<std::unique_ptr<Graph>> next(order.size());
  auto previous = std::make_shared<std::vector<Graph*>>();
  previous->reserve(m.graphs.size());
  for (const auto& g : m.graphs) previous->push_back(g.get());
  std::vector<char> taken(m.graphs.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) {
    const unsigned at = order[i]->index;
    if (at >= m.graphs.size() || m.graphs[at].get() != order[i] || taken[at])
      internalError("reorderGraphs: not a permutation of the graphs");
    taken[at] = 1;
  }
  for (size_t i = 0; i < order.size(); ++i) next[i] = std::move(m.graphs[order[i]->index]);
  m.graphs = std::move(next);
  renumberGraphs(m);
  m.touch();
  m.journal([&m, previous]() { reorderGraphs(m, *previous); });
}

Graph* cloneGraph(Module& m, const Graph& src, const std::string& name, IRMapping* mapping) {
  IRMapping local;
  IRMapping& map = mapping ? *mapping : local;
  Graph* g = createGraph(m, name, src.loc);
  g->attrs = src.attrs;
  g->outputsWritten = src.outputsWritten;
  for (const Value* p : src.params) map.map(p, addParam(m, *g, p->name, p->type, p->byRef));
  for (const auto& op : src.ops) g->ops.push_back(cloneOpInto(m, *g, *op, map, /*keepNames=*/true));
  std::vector<Operand> rets;
  for (const Operand& o : src.returns) {
    Operand x = o;
    if (x.value()) x.setValue(map.lookupOrSelf(x.value()));
    rets.push_back(std::move(x));
  }
  g->returns = std::move(rets);
  g->outputTypes = src.outputTypes;
  g->hasReturn = src.hasReturn;
  g->nextGeneratedName = src.nextGeneratedName;
  g->nextNameSuffix = src.nextNameSuffix;
  m.touch();
  return g;
}

// ---- ops ----------------------------------------------------------------------------

ptrdiff_t positionOf(const Op& op) {
  const std::vector<std::unique_ptr<Op>>& list = op.enclosing() ? op.enclosing()->region().list() : op.parent->ops;
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].get() == &op) return static_cast<ptrdiff_t>(i);
  return -1;
}

namespace {

std::vector<std::unique_ptr<Op>>& listOf(Op& op) { return op.enclosing() ? op.enclosing()->mutableRegion().mutableList() : op.parent->ops; }

}  // namespace

void detachValue(Module& m, Value* v) {
  Graph& g = *v->graph;
  Op* def = v->def;
  bool inScope = g.scope.find(v->name) == v;
  if (inScope) g.scope.erase(v);
  v->def = nullptr;
  m.journal(g, [&g, v, def, inScope]() {
    v->def = def;
    if (inScope) g.scope.insert(v);
  });
}

void eraseOp(Module& m, Op& op) {
  const UseMap uses(*op.parent);  // one walk for all results, not one per result
  for (Value* r : op.results) {
    if (uses.hasUses(r))
      internalError("eraseOp: " + std::string(op.info().name) + " result %" + r->name + " still has uses");
  }
  for (auto& inner : op.region())
    for (Value* r : inner->results) detachValue(m, r);
  for (Value* r : op.results) detachValue(m, r);
  auto& list = listOf(op);
  ptrdiff_t pos = positionOf(op);
  if (pos < 0) internalError("eraseOp: op not in its graph");
  auto holder = std::make_shared<std::unique_ptr<Op>>(std::move(list[static_cast<size_t>(pos)]));
  list.erase(list.begin() + pos);
  m.touch();
  m.journal([&list, pos, holder]() { list.insert(list.begin() + pos, std::move(*holder)); });
}

Op* wrapInExchange(Module& m, Op& first, Op& last, AttrDict attrs) {
  Graph& g = *first.parent;
  ptrdiff_t a = positionOf(first), b = positionOf(last);
  if (first.enclosing() || last.enclosing() || a < 0 || b < a || last.parent != &g)
    internalError("wrapInExchange: not a range of top-level ops of one graph");
  auto block = std::make_unique<Op>();
  block->code = OpCode::Exchange;
  block->attrs = std::move(attrs);
  block->parent = &g;
  block->loc = first.loc;
  Op* raw = block.get();
  for (ptrdiff_t i = a; i <= b; ++i) {
    g.ops[static_cast<size_t>(i)]->setEnclosing(raw);
    block->mutableRegion().push_back(std::move(g.ops[static_cast<size_t>(i)]));
  }
  g.ops.erase(g.ops.begin() + a, g.ops.begin() + b + 1);
  g.ops.insert(g.ops.begin() + a, std::move(block));
  m.touch();
  m.journal([&m, raw]() { unwrapExchange(m, *raw); });
  return raw;
}

void unwrapExchange(Module& m, Op& block) {
  Graph& g = *block.parent;
  ptrdiff_t pos = positionOf(block);
  if (pos < 0 || block.code != OpCode::Exchange) internalError("unwrapExchange: not an exchange block");
  std::vector<std::unique_ptr<Op>> inner = block.mutableRegion().take();
  for (auto& op : inner) op->setEnclosing(nullptr);
  auto holder = std::make_shared<std::unique_ptr<Op>>(std::move(g.ops[static_cast<size_t>(pos)]));
  g.ops.erase(g.ops.begin() + pos);
  size_t n = inner.size();
  g.ops.insert(g.ops.begin() + pos, std::make_move_iterator(inner.begin()), std::make_move_iterator(inner.end()));
  m.touch();
  m.journal(g, [&g, pos, n, holder]() {
    Op* raw = holder->get();
    for (size_t i = 0; i < n; ++i) {
      auto& slot = g.ops[static_cast<size_t>(pos) + i];
      slot->setEnclosing(raw);
      raw->mutableRegion().push_back(std::move(slot));
    }
    g.ops.erase(g.ops.begin() + pos, g.ops.begin() + pos + static_cast<ptrdiff_t>(n));
    g.ops.insert(g.ops.begin() + pos, std::move(*holder));
  });
}

void truncateMainTo(Module& m, const ProgramPoint& point) {
  Graph& g = *m.main;
  if (g.ops.size() > point.mainOps) g.ops.resize(point.mainOps);
  for (auto& op : g.ops)
    while (!op->results.empty() && op->results.back()->id >= point.mainValues) op->results.pop_back();
  g.truncateValues(point.mainValues);
  m.touch();
}

void createResults(Module& m, Graph& g, Op& op, std::vector<TensorType>& types,
                   const std::vector<std::pair<std::string, SourceLoc>>& names) {
  const bool inplace = op.info().has(F_INPLACE);
  const size_t count = inplace ? std::min(types.size(), names.size()) : types.size();
  // The op's uses and results are checked against the host-memory budget before
  // any is made (a count may come from an attribute: `split_random_seed {n = ...}`).
  // The results are charged at once, to the graph (one update of the budget,
  // not one per value); what was charged for values not made is given back.
  const uint64_t resultBytes = saturatingMul(static_cast<uint64_t>(count), valueHostBytes());
  g.valueCharge.add(resultBytes);
  size_t made = 0;
  try {
    op.chargeUses(op.operands.size());
    op.results.reserve(count);
    for (; made < count; ++made) {
      const size_t i = made;
      const bool named = i < names.size() && !names[i].first.empty();
      std::string name = named ? names[i].first : freshName(g);  // a named one as uniqueName makes it
      const SourceLoc loc = named && names[i].second.valid() ? names[i].second : op.loc;
      SharedType type = resultType(g, op, std::move(types[i]));
      Value* v = newChargedValue(m, g, Value::Kind::Result, std::move(name), !named, std::move(type), loc, named);
      v->def = &op;
      v->resultIndex = static_cast<unsigned>(i);
      op.results.push_back(v);
    }
  } catch (...) {
    g.valueCharge.remove(resultBytes - made * valueHostBytes());
    throw;
  }
}

Op* appendOp(Module& m, Graph& g, std::unique_ptr<Op> op, Op* region) {
  op->setEnclosing(region);
  auto& list = region ? region->mutableRegion().mutableList() : g.ops;
  Op* raw = op.get();
  list.push_back(std::move(op));
  m.touch();
  if (!region && !g.isMain) m.journal(g, [&list]() { list.pop_back(); });
  return raw;
}

Graph* appendGraph(Module& m, std::unique_ptr<Graph> g) {
  Graph* raw = g.get();
  raw->index = static_cast<unsigned>(m.graphs.size());
  m.graphScope.emplace(raw->name, raw);
  m.graphs.push_back(std::move(g));
  m.touch();
  return raw;
}

void dropLastGraph(Module& m, Graph& g) {
  if (m.graphs.empty() || m.graphs.back().get() != &g) internalError("dropLastGraph: @" + g.name + " is not the last graph");
  m.graphScope.erase(g.name);
  // Journaled inverses may still refer to the graph: the journal keeps it alive.
  auto holder = std::make_shared<std::unique_ptr<Graph>>(std::move(m.graphs.back()));
  m.graphs.pop_back();
  m.journal([holder]() {});
  m.touch();
}

void setReturnValue(Module& m, Graph& g, size_t index, Value* v) {
  Value* before = g.returns[index].value();
  g.returns[index].setValue(v);
  m.touch();
  m.journal(g, [&g, index, before]() { g.returns[index].setValue(before); });
}

void setActivation(Module& m, Graph& g, size_t index, Value* v) {
  Value* before = g.activations[index];
  g.activations[index] = v;
  m.touch();
  m.journal(g, [&g, index, before]() { g.activations[index] = before; });
}

void setCallee(Module& m, Op& op, size_t index, Graph& callee) {
  Graph* old = op.callees[index].graph;
  op.callees[index].graph = &callee;
  m.touch();
  m.journal([&op, index, old]() { op.callees[index].graph = old; });
}

Value* appendResult(Module& m, Op& op, TensorType type) {
  Graph& g = *op.parent;
  Value* v = newValue(m, g, Value::Kind::Result, freshName(g), true, std::move(type), op.loc);
  v->def = &op;
  v->resultIndex = static_cast<unsigned>(op.results.size());
  op.results.push_back(v);
  m.journal([&op]() { op.results.pop_back(); });
  return v;
}

void turnIntoConstant(Module& m, Op& op, std::shared_ptr<Literal> init, AttrDict attrs) {
  Value* v = op.results[0];
  const Value::Kind kind = v->kind;
  m.journal([&op, v, kind, code = op.code, operands = std::move(op.operands), oldAttrs = std::move(op.attrs),
             oldInit = op.init()]() mutable {
    op.code = code;
    op.operands = std::move(operands);
    op.attrs = std::move(oldAttrs);
    op.setInit(std::move(oldInit));
    v->kind = kind;
  });
  op.code = OpCode::Const;
  op.operands.clear();
  op.attrs = std::move(attrs);
  op.setInit(std::move(init));
  v->kind = Value::Kind::Const;
  m.touch();
}

void rebuildOps(Module& m, Graph& g,
                const std::function<void(std::vector<std::unique_ptr<Op>>& old,
                                         std::vector<std::unique_ptr<Op>>& dropped)>& rebuild) {
  std::vector<std::unique_ptr<Op>> old = std::move(g.ops);
  g.ops.clear();
  std::vector<Op*> order;
  order.reserve(old.size());
  for (const auto& op : old) order.push_back(op.get());
  auto dropped = std::make_shared<std::vector<std::unique_ptr<Op>>>();
  m.touch();
  // Undo: every later change has been undone first, so g.ops holds the ops that
  // stayed and `dropped` the others: put them back in the original order.
  m.journal(g, [&g, order, dropped]() {
    std::unordered_map<const Op*, std::unique_ptr<Op>> owned;
    for (auto& op : g.ops) owned.emplace(op.get(), std::move(op));
    for (auto& op : *dropped) owned.emplace(op.get(), std::move(op));
    g.ops.clear();
    for (Op* op : order) g.ops.push_back(std::move(owned.at(op)));
  });
  rebuild(old, *dropped);
}

// ---- OpBuilder -------------------------------------------------------------------------

OpBuilder::OpBuilder(Module& m, Graph& g, DiagnosticEngine& diags) : m_(m), diags_(diags), ip_{&g, nullptr} {}

void OpBuilder::setInsertionPointAfter(Op* op) {
  Graph& g = *op->parent;
  ptrdiff_t pos = positionOf(*op);
  ip_.graph = &g;
  ip_.before = static_cast<size_t>(pos + 1) < g.ops.size() ? g.ops[static_cast<size_t>(pos + 1)].get() : nullptr;
}

Op* OpBuilder::insert(std::unique_ptr<Op> op) {
  Graph& g = *ip_.graph;
  op->parent = &g;
  op->setEnclosing(nullptr);
  Op* raw = op.get();
  size_t pos = g.ops.size();
  if (ip_.before) {
    ptrdiff_t p = positionOf(*ip_.before);
    if (p < 0) internalError("OpBuilder: insertion point is not in its graph");
    pos = static_cast<size_t>(p);
  }
  g.ops.insert(g.ops.begin() + static_cast<ptrdiff_t>(pos), std::move(op));
  m_.touch();
  if (m_.journaling())
    m_.journal(g, [&g, raw]() {
      for (size_t i = g.ops.size(); i-- > 0;)
        if (g.ops[i].get() == raw) {
          g.ops.erase(g.ops.begin() + static_cast<ptrdiff_t>(i));
          break;
        }
    });
  return raw;
}

Op* OpBuilder::create(OpCode code, std::vector<Operand> operands, AttrDict attrs, std::vector<std::string> names) {
  auto op = std::make_unique<Op>();
  op->code = code;
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  op->parent = ip_.graph;
  op->loc = loc_;
  return finish(std::move(op), std::move(names));
}

Op* OpBuilder::finish(std::unique_ptr<Op> op, std::vector<std::string> names) {
  for (Operand& o : op->operands)
    if (o.kind() == Operand::Kind::Value && o.value() && o.value()->graph != ip_.graph)
      internalError("OpBuilder: " + std::string(op->info().name) + " operand %" + o.value()->name +
                             " belongs to another graph");
  verifyOp(*op, m_.options, types_, diags_);
  std::vector<std::pair<std::string, SourceLoc>> named;
  named.reserve(names.size());
  for (std::string& n : names) named.emplace_back(std::move(n), SourceLoc{});
  createResults(m_, *ip_.graph, *op, types_, named);
  return insert(std::move(op));
}

Value* OpBuilder::create1(OpCode code, std::vector<Operand> operands, AttrDict attrs, std::string name) {
  std::vector<std::string> names;
  if (!name.empty()) names.push_back(std::move(name));
  Op* op = create(code, std::move(operands), std::move(attrs), std::move(names));
  if (op->results.size() != 1)
    internalError("OpBuilder::create1: " + std::string(op->info().name) + " has " +
                           std::to_string(op->results.size()) + " results");
  return op->results[0];
}

Value* OpBuilder::create1(OpCode code, std::initializer_list<Value*> operands, AttrDict attrs, std::string name) {
  std::vector<Operand> ops;
  for (Value* v : operands) ops.push_back(Operand::of(v));
  return create1(code, std::move(ops), std::move(attrs), std::move(name));
}

Op* OpBuilder::createCall(Graph& callee, std::vector<Operand> args, std::vector<std::string> names) {
  auto op = std::make_unique<Op>();
  op->code = OpCode::Call;
  op->callees.push_back({&callee, 0, static_cast<uint32_t>(args.size()), loc_});
  op->operands = std::move(args);
  op->parent = ip_.graph;
  op->loc = loc_;
  return finish(std::move(op), std::move(names));
}

Op* OpBuilder::createRepeat(Graph& body, std::vector<Operand> args, int64_t count, std::vector<std::string> names) {
  auto op = std::make_unique<Op>();
  op->code = OpCode::Repeat;
  op->callees.push_back({&body, 0, static_cast<uint32_t>(args.size()), loc_});
  op->operands = std::move(args);
  op->attrs.set("count", Attr::integer(count));
  op->parent = ip_.graph;
  op->loc = loc_;
  return finish(std::move(op), std::move(names));
}

Op* OpBuilder::createConditional(Operand cond, Graph& thenGraph, std::vector<Operand> thenArgs, Graph& elseGraph,
                                 std::vector<Operand> elseArgs, std::vector<std::string> names) {
  auto op = std::make_unique<Op>();
  op->code = OpCode::Conditional;
  op->operands.push_back(std::move(cond));
  op->callees.push_back({&thenGraph, 1, static_cast<uint32_t>(thenArgs.size()), loc_});
  op->callees.push_back(
      {&elseGraph, static_cast<uint32_t>(1 + thenArgs.size()), static_cast<uint32_t>(elseArgs.size()), loc_});
  for (auto& a : thenArgs) op->operands.push_back(std::move(a));
  for (auto& a : elseArgs) op->operands.push_back(std::move(a));
  op->parent = ip_.graph;
  op->loc = loc_;
  return finish(std::move(op), std::move(names));
}

Value* OpBuilder::constant(const TensorType& type, std::vector<double> values, std::string name) {
  auto lit = std::make_shared<Literal>();
  lit->kind = Literal::Kind::Data;
  if (values.size() != 1) lit->shape = type.shape;
  lit->values = std::move(values);
  lit->hasNumber = true;
  lit->loc = loc_;
  checkLiteralData(*lit, type, "const", diags_);
  auto op = std::make_unique<Op>();
  op->code = OpCode::Const;
  op->setInit(std::move(lit));
  op->parent = ip_.graph;
  op->loc = loc_;
  Graph& g = *ip_.graph;
  const bool named = !name.empty();
  Value* v = newValue(m_, g, Value::Kind::Const, named ? uniqueName(g, name) : freshName(g), !named, type, loc_);
  v->def = op.get();
  op->results.push_back(v);
  insert(std::move(op));
  return v;
}

Op* OpBuilder::clone(const Op& src, IRMapping& map) { return insert(cloneOpInto(m_, *ip_.graph, src, map, /*keepNames=*/false)); }

// ---- queries ------------------------------------------------------------------------

namespace {

void writesOf(const Graph& g, std::unordered_map<const Graph*, std::vector<bool>>& memo) {
  if (memo.count(&g)) return;
  std::vector<bool> written(g.params.size(), false);
  auto mark = [&](const Value* v) {
    const Value* root = aliasRoot(v);
    if (!root || root->kind != Value::Kind::Param) return;
    for (size_t i = 0; i < g.params.size(); ++i)
      if (g.params[i] == root) written[i] = true;
  };
  forEachOp(g, [&](const Op& op) {
    int w = inplaceOperandIndex(op.code);
    if (w >= 0 && static_cast<size_t>(w) < op.operands.size() && op.operands[w].kind() == Operand::Kind::Value)
      mark(op.operands[w].value());
    for (size_t k = 0; k < op.callees.size(); ++k) {
      const Graph& callee = *op.callees[k].graph;
      bool anyRef = false;
      for (const Value* p : callee.params) anyRef = anyRef || p->byRef;
      if (!anyRef) continue;
      writesOf(callee, memo);
      const std::vector<bool>& cw = memo.at(&callee);
      auto args = op.args(k);
      for (size_t i = 0; i < args.size() && i < cw.size(); ++i)
        if (cw[i] && callee.params[i]->byRef && args[i].kind() == Operand::Kind::Value) mark(args[i].value());
    }
  });
  memo[&g] = std::move(written);
}

}  // namespace

std::vector<bool> paramsWrittenInPlace(const Graph& g) {
  std::unordered_map<const Graph*, std::vector<bool>> memo;
  writesOf(g, memo);
  return memo.at(&g);
}

std::vector<Graph*> calleesOf(const Graph& g) {
  std::vector<Graph*> out;
  std::unordered_set<const Graph*> seen;
  forEachOp(g, [&](const Op& op) {
    for (const CalleeRef& k : op.callees)
      if (seen.insert(k.graph).second) out.push_back(k.graph);
  });
  return out;
}

}  // namespace pir
