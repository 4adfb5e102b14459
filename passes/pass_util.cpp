#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "ir/internal_error.h"
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
    return o.kind() == Operand::Kind::Value && o.value()->def && dead.count(o.value()->def->enclosing() ? o.value()->def->enclosing()
                                                                                                : o.value()->def);
  };
  for (const auto& op : g.ops) {
    if (dead.count(op.get())) continue;
    bool bad = false;
    for (const Operand& o : op->operands) bad = bad || usesDead(o);
    for (const auto& inner : op->region())
      for (const Operand& o : inner->operands) bad = bad || usesDead(o);
    if (bad) internalError("eraseOps: " + std::string(op->info().name) + " still uses an erased result");
  }
  for (const Operand& o : g.returns)
    if (usesDead(o)) internalError("eraseOps: @" + g.name + " returns an erased result");
  for (const auto& other : m.graphs)
    for (const Value* a : other->activations)
      if (a->def && dead.count(a->def)) internalError("eraseOps: an activation of @" + other->name + " is erased");

  rebuildOps(m, g, [&](std::vector<std::unique_ptr<Op>>& old, std::vector<std::unique_ptr<Op>>& erased) {
    for (auto& op : old) {
      if (!dead.count(op.get())) {
        g.ops.push_back(std::move(op));
        continue;
      }
      for (auto& inner : op->region())
        for (Value* r : inner->results) detachValue(m, r);
      for (Value* r : op->results) detachValue(m, r);
      erased.push_back(std::move(op));
    }
  });
}

}  // namespace pir::passes
