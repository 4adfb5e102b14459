#include "ir/ir.h"

#include <climits>

namespace pir {

namespace {
uint64_t hashName(std::string_view name) { return std::hash<std::string_view>{}(name); }
}  // namespace

size_t ValueScope::findSlot(std::string_view name, uint64_t hash) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (!s.value || (s.hash == hash && s.value->name == name)) return i;
  }
}

Value* ValueScope::find(std::string_view name) const {
  if (slots_.empty()) return nullptr;
  return slots_[findSlot(name, hashName(name))].value;
}

void ValueScope::insert(Value* v) {
  if ((size_ + 1) * 4 > slots_.size() * 3) grow();  // load factor <= 3/4
  uint64_t h = hashName(v->name);
  Slot& s = slots_[findSlot(v->name, h)];
  if (!s.value) ++size_;
  s = Slot{h, v};
}

void ValueScope::erase(const Value* v) {
  if (slots_.empty()) return;
  size_t mask = slots_.size() - 1;
  size_t i = findSlot(v->name, hashName(v->name));
  if (slots_[i].value != v) return;
  // Backward-shift deletion: move later entries of the probe run into the hole.
  size_t hole = i;
  for (size_t j = (i + 1) & mask; slots_[j].value; j = (j + 1) & mask) {
    size_t home = slots_[j].hash & mask;
    // Entry j may move to the hole if its home is not in (hole, j] cyclically.
    bool between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!between) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot{};
  --size_;
}

void ValueScope::reserve(size_t n) {
  size_t want = 16;
  while (want * 3 < n * 4) want *= 2;
  if (want <= slots_.size()) return;
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(want, Slot{});
  size_t mask = want - 1;
  for (const Slot& s : old) {
    if (!s.value) continue;
    size_t i = s.hash & mask;
    while (slots_[i].value) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void ValueScope::grow() { reserve(slots_.empty() ? 12 : slots_.size()); }

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

Module::Checkpoint Module::checkpoint() const {
  return {resources.size(), graphs.size(),    main->ops.size(), main->values.size(),
          autodiffs.size(), commands.size(), options,          anyItemSeen};
}

void Module::rollback(const Checkpoint& cp) {
  while (resources.size() > cp.resources) {
    resourceScope.erase(resources.back()->name);
    resources.pop_back();
  }
  while (graphs.size() > cp.graphs) {
    graphScope.erase(graphs.back()->name);
    graphs.pop_back();
  }
  Graph& g = *main;
  while (g.ops.size() > cp.mainOps) {
    Op* op = g.ops.back().get();
    if (!op->label.empty()) {
      auto it = g.labels.find(op->label);
      if (it != g.labels.end() && it->second == op) g.labels.erase(it);
    }
    g.ops.pop_back();
  }
  while (g.values.size() > cp.mainValues) {
    g.scope.erase(g.values.back().get());
    g.values.pop_back();
  }
  autodiffs.resize(cp.autodiffs);
  commands.resize(cp.commands);
  options = cp.options;
  anyItemSeen = cp.anyItemSeen;
}

}  // namespace pir
