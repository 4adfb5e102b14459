#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "ir/rewriter.h"
#include "passes/passes.h"

namespace pir::passes {

bool readableBySession(const Value& v, const PassContext& ctx) {
  if (!v.graph || !v.graph->isMain) return false;
  return !v.generatedName || !ctx.mainNamesRead || ctx.mainNamesRead->count(v.name) != 0;
}

std::vector<Graph*> graphsCalleesFirst(Module& m) {
  std::vector<Graph*> out;
  for (auto& g : m.graphs) out.push_back(g.get());
  out.push_back(m.main.get());
  return out;
}

void eraseOps(Module& m, Graph& g, const std::unordered_set<const Op*>& dead) {
  if (dead.empty()) return;
  auto usesDead = [&](const Operand& o) {
    return o.kind == Operand::Kind::Value && o.value->def && dead.count(o.value->def->enclosing ? o.value->def->enclosing
                                                                                                : o.value->def);
  };
  for (const auto& op : g.ops) {
    if (dead.count(op.get())) continue;
    bool bad = false;
    for (const Operand& o : op->operands) bad = bad || usesDead(o);
    for (const auto& inner : op->region)
      for (const Operand& o : inner->operands) bad = bad || usesDead(o);
    if (bad) throw std::logic_error("eraseOps: " + std::string(op->info().name) + " still uses an erased result");
  }
  for (const Operand& o : g.returns)
    if (usesDead(o)) throw std::logic_error("eraseOps: @" + g.name + " returns an erased result");
  for (const auto& other : m.graphs)
    for (const Value* a : other->activations)
      if (a->def && dead.count(a->def)) throw std::logic_error("eraseOps: an activation of @" + other->name + " is erased");

  auto detach = [&](Value* v) {
    Op* def = v->def;
    const bool inScope = g.scope.find(v->name) == v;
    if (inScope) g.scope.erase(v);
    v->def = nullptr;
    m.journal([&g, v, def, inScope]() {
      v->def = def;
      if (inScope) g.scope.insert(v);
    });
  };
  std::vector<Op*> order;
  auto erased = std::make_shared<std::vector<std::unique_ptr<Op>>>();
  std::vector<std::unique_ptr<Op>> kept;
  kept.reserve(g.ops.size());
  for (auto& op : g.ops) {
    order.push_back(op.get());
    if (!dead.count(op.get())) {
      kept.push_back(std::move(op));
      continue;
    }
    for (auto& inner : op->region)
      for (Value* r : inner->results) detach(r);
    for (Value* r : op->results) detach(r);
    erased->push_back(std::move(op));
  }
  g.ops = std::move(kept);
  m.touch();
  // Undo: the list as it was (later changes have been undone first).
  m.journal([&g, order = std::move(order), erased]() {
    std::unordered_map<const Op*, std::unique_ptr<Op>> owned;
    for (auto& op : g.ops) owned.emplace(op.get(), std::move(op));
    for (auto& op : *erased) owned.emplace(op.get(), std::move(op));
    g.ops.clear();
    for (Op* op : order) g.ops.push_back(std::move(owned.at(op)));
  });
}

}  // namespace pir::passes
