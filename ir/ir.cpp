#include "ir/ir.h"

#include "ir/checked_math.h"

#include <climits>

#include <atomic>

namespace pir {

// The objects' sizes plus what each brings along besides (list entries, scope
// slots, a shape; an out-of-line payload for the few that have one, which the
// margins cover). Measured (parse_bench BM_ParseVerifyMemory): a statement
// `%v = add %a, %c` takes 266 heap bytes in all; it is charged 192 + 160 + 2 x 40
// (the charges of larger objects before, kept so that a program that fit a
// budget still fits it and one that did not still does not).
uint64_t valueHostBytes() { return sizeof(Value) + 96; }
uint64_t opHostBytes() { return sizeof(Op) + 80; }
uint64_t operandHostBytes() { return sizeof(Operand) + 16; }

const TensorType& Operand::literalType() const {
  static const TensorType kNone;
  const OperandPayload* p = payloadIfAny();
  return p ? p->literalType : kNone;
}

Op::Op() : budgetOrExtras_(reinterpret_cast<uintptr_t>(&hostMemoryBudget())) { budget()->charge(opHostBytes()); }

Op::Op(Op&& o) : Op() {
  const uint64_t uses = o.chargedUses();
  HostMemoryBudget* mine = budget();
  HostMemoryBudget* theirs = o.budget();
  if (uses && theirs != mine) {
    mine->charge(saturatingMul(uses, operandHostBytes()));
    theirs->release(saturatingMul(uses, operandHostBytes()));
  }
  operands = std::move(o.operands);
  results = std::move(o.results);
  attrs = std::move(o.attrs);
  callees = std::move(o.callees);
  parent = o.parent;
  uid = o.uid;
  loc = o.loc;
  code = o.code;
  if (Extras* e = o.extrasIfAny()) {  // taken with the use count, when it is out of line; each op keeps its budget
    o.budgetOrExtras_ = reinterpret_cast<uintptr_t>(theirs);
    e->budget = mine;
    budgetOrExtras_ = reinterpret_cast<uintptr_t>(e) | 1;
  }
  smallChargedUses_ = o.smallChargedUses_;
  o.smallChargedUses_ = 0;
}

Op::~Op() {
  budget()->release(saturatingAdd(opHostBytes(), saturatingMul(chargedUses(), operandHostBytes())));
  delete extrasIfAny();
}

Op::Extras& Op::extras() {
  if (Extras* e = extrasIfAny()) return *e;
  auto* e = new Extras;
  e->budget = budget();
  budgetOrExtras_ = reinterpret_cast<uintptr_t>(e) | 1;
  return *e;
}

void Op::chargeUses(uint64_t count) {
  if (count == 0) return;
  const uint64_t total = saturatingAdd(chargedUses(), count);
  if (total >= kUsesOutOfLine) extras();  // made before the charge: a failed allocation charges nothing
  budget()->charge(saturatingMul(count, operandHostBytes()));
  if (total >= kUsesOutOfLine) {
    extrasIfAny()->chargedUses = total;
    smallChargedUses_ = kUsesOutOfLine;
  } else {
    smallChargedUses_ = static_cast<uint16_t>(total);
  }
}

const RareList<std::unique_ptr<Op>>& Op::region() const {
  static const RareList<std::unique_ptr<Op>> kNone;
  const Extras* e = extrasIfAny();
  return e ? e->region : kNone;
}

const std::shared_ptr<Literal>& Op::init() const {
  static const std::shared_ptr<Literal> kNone;
  const Extras* e = extrasIfAny();
  return e ? e->init : kNone;
}

void Op::setInit(std::shared_ptr<Literal> lit) {
  if (!extrasIfAny() && !lit) return;
  extras().init = std::move(lit);
}

const CallLabel& Op::label() const {
  static const CallLabel kNone;
  const Extras* e = extrasIfAny();
  return e ? e->label : kNone;
}

void Op::setLabel(std::string text) {
  if (!extrasIfAny() && text.empty()) return;
  extras().label = std::move(text);
}

void Op::setEnclosing(Op* block) {
  if (!extrasIfAny() && !block) return;
  extras().enclosing = block;
}

const std::string& CallLabel::str() const {
  static const std::string kNone;
  return text_ ? *text_ : kNone;
}

uint64_t nextUid() {
  // Process-wide on purpose: serial numbers need only be unique, in any context.
  // Each thread takes them in blocks, so that making a value or an op (a large
  // program makes millions) updates no shared counter. Never 0 (callers use 0
  // as "none").
  static std::atomic<uint64_t> next{1};
  constexpr uint64_t kBlock = 4096;
  thread_local uint64_t mine = 0, end = 0;
  if (mine == end) {
    mine = next.fetch_add(kBlock, std::memory_order_relaxed);
    end = mine + kBlock;
  }
  return mine++;
}

void Graph::truncateValues(size_t count) {
  while (values.size() > count) {
    scope.erase(values.back().get());  // a no-op unless the scope holds this value
    values.pop_back();
    valueCharge.remove(valueHostBytes());
  }
}

Module::Module() : main(std::make_unique<Graph>()) {
  main->name = "main";
  main->isMain = true;
  main->index = UINT_MAX;
}

Resource* Module::findResource(const std::string& n) const {
  auto it = resourceScope.find(n);
  return it == resourceScope.end() ? nullptr : it->second;
}

TensorType Module::hostBufferType(const Resource& r) const {
  TensorType t = r.type;
  if (options.replication > 1) t.shape.insert(t.shape.begin(), options.replication);
  if (options.numHostTransfers > 1) t.shape.insert(t.shape.begin(), options.numHostTransfers);
  return t;
}

Graph* Module::findGraph(const std::string& n) const {
  auto it = graphScope.find(n);
  return it == graphScope.end() ? nullptr : it->second;
}

Module::~Module() = default;

namespace {

// Deep copy of one op list; values and graphs are mapped through the tables.
struct ModuleCloner {
  std::unordered_map<const Value*, Value*> values;
  std::unordered_map<const Resource*, Resource*> resources;
  std::unordered_map<const Graph*, Graph*> graphs;

  Operand operand(const Operand& o) {
    Operand c = o;
    if (o.value()) c.setValue(values.at(o.value()));
    if (o.resource()) c.setResource(resources.at(o.resource()));
    return c;
  }
  std::unique_ptr<Op> op(const Op& src, Graph& parent, Op* enclosing) {
    auto c = std::make_unique<Op>();
    c->code = src.code;
    c->operands.reserve(src.operands.size());
    for (const Operand& o : src.operands) c->operands.push_back(operand(o));
    c->callees = src.callees;
    for (CalleeRef& k : c->callees) k.graph = graphs.at(k.graph);
    c->attrs = src.attrs;
    c->setInit(src.init());
    c->setLabel(src.label());
    c->parent = &parent;
    c->setEnclosing(enclosing);
    c->loc = src.loc;
    c->uid = src.uid;
    for (auto& inner : src.region()) c->mutableRegion().push_back(op(*inner, parent, c.get()));
    for (const Value* r : src.results) {
      Value* v = values.at(r);
      v->def = c.get();
      c->results.push_back(v);
    }
    return c;
  }
  // Values first (so ops can refer to them), then ops.
  void graphBody(const Graph& src, Graph& dst) {
    dst.values.reserve(src.values.size());
    dst.valueCharge.add(saturatingMul(static_cast<uint64_t>(src.values.size()), valueHostBytes()));
    for (const auto& v : src.values) {
      auto c = std::make_unique<Value>(*v);
      c->def = nullptr;
      c->graph = &dst;
      values[v.get()] = c.get();
      dst.values.push_back(std::move(c));
    }
    for (const auto& v : src.values)
      if (src.scope.find(v->name) == v.get()) dst.scope.insert(values.at(v.get()));
    for (const Value* p : src.params) dst.params.push_back(values.at(p));
    for (const auto& o : src.ops) dst.ops.push_back(op(*o, dst, nullptr));
    for (const Operand& r : src.returns) dst.returns.push_back(operand(r));
  }
};

void copyGraphHeader(const Graph& src, Graph& dst) {
  dst.name = src.name;
  dst.isMain = src.isMain;
  dst.outputTypes = src.outputTypes;
  dst.outputsWritten = src.outputsWritten;
  dst.hasReturn = src.hasReturn;
  dst.returnLoc = src.returnLoc;
  dst.attrs = src.attrs;
  dst.loc = src.loc;
  dst.index = src.index;
  dst.nextGeneratedName = src.nextGeneratedName;
  dst.nextNameSuffix = src.nextNameSuffix;
}

}  // namespace

std::unique_ptr<Module> Module::clone() const {
  auto m = std::make_unique<Module>();
  m->options = options;
  m->anyItemSeen = anyItemSeen;
  m->generation = generation;
  ModuleCloner c;
  for (const auto& r : resources) {
    auto copy = std::make_unique<Resource>(*r);
    c.resources[r.get()] = copy.get();
    m->resourceScope.emplace(copy->name, copy.get());
    m->resources.push_back(std::move(copy));
  }
  for (const auto& g : graphs) {
    auto copy = std::make_unique<Graph>();
    copyGraphHeader(*g, *copy);
    c.graphs[g.get()] = copy.get();
    m->graphScope.emplace(copy->name, copy.get());
    m->graphs.push_back(std::move(copy));
  }
  copyGraphHeader(*main, *m->main);
  c.graphs[main.get()] = m->main.get();
  for (size_t i = 0; i < graphs.size(); ++i) c.graphBody(*graphs[i], *m->graphs[i]);
  c.graphBody(*main, *m->main);
  // Cross-graph references last: every graph's values exist now.
  for (size_t i = 0; i < graphs.size(); ++i) {
    const Graph& src = *graphs[i];
    Graph& dst = *m->graphs[i];
    if (src.gradOf) dst.gradOf = c.graphs.at(src.gradOf);
    for (const Value* a : src.activations) dst.activations.push_back(c.values.at(a));
  }
  return m;
}

bool Module::owns(const Graph& g) const {
  return &g == main.get() || (g.index < graphs.size() && graphs[g.index].get() == &g);
}

ProgramPoint Module::point() const { return {main->ops.size(), main->values.size(), generation}; }

Module::Checkpoint Module::checkpoint() {
  journaling_ = true;
  Checkpoint cp;
  cp.resources = resources.size();
  cp.graphs = graphs.size();
  cp.mainOps = main->ops.size();
  cp.mainValues = main->values.size();
  cp.journal = undo_.size();
  cp.options = options;
  cp.anyItemSeen = anyItemSeen;
  return cp;
}

void Module::rollback(const Checkpoint& cp) {
  // Inverses first, newest first: they may refer to appended items, which
  // the truncation below then removes.
  // An inverse may itself use the mutation API: it must not journal again.
  // Inverses are destroyed only after all have run: an older one may refer to
  // an object that a newer one's closure keeps alive.
  journaling_ = false;
  std::vector<std::function<void()>> ran;
  while (undo_.size() > cp.journal) {
    ran.push_back(std::move(undo_.back()));
    undo_.pop_back();
    ran.back()();
  }
  journaling_ = true;
  while (resources.size() > cp.resources) {
    resourceScope.erase(resources.back()->name);
    resources.pop_back();
  }
  while (graphs.size() > cp.graphs) {
    graphScope.erase(graphs.back()->name);
    graphs.pop_back();
  }
  Graph& g = *main;
  while (g.ops.size() > cp.mainOps) g.ops.pop_back();
  g.truncateValues(cp.mainValues);
  options = cp.options;
  anyItemSeen = cp.anyItemSeen;
  touch();
}

}  // namespace pir
