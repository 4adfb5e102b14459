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

std::vector<Op*> flatOps(Graph& g) {
  std::vector<Op*> ops;
  forEachOp(g, [&](Op& op) {
    if (!op.info().has(F_REGION)) ops.push_back(&op);
  });
  return ops;
}

std::vector<size_t> lastInPlaceWrites(const std::vector<Op*>& ops, WriteAnalysis& writes) {
  std::vector<size_t> lastWrite(ops.size(), SIZE_MAX);
  for (size_t k = 0, last = SIZE_MAX; k < ops.size(); ++k) {
    if (writes.writesInPlace(*ops[k])) last = k;
    lastWrite[k] = last;
  }
  return lastWrite;
}

bool anyOp(const Module& m, const std::function<bool(const Op&)>& pred) {
  bool found = false;
  auto visit = [&](const Graph& g) {
    forEachOp(g, [&](const Op& op) { found = found || pred(op); });
  };
  for (const auto& g : m.graphs) visit(*g);
  visit(*m.main);
  return found;
}

LogicalResult foldAndErase(Module& m, const FoldGraph& foldGraph) {
  std::unordered_set<const Value*> activations;
  for (Graph* g : graphsCalleesFirst(m))
    for (const Value* v : g->activations) activations.insert(v);
  WriteAnalysis writes;
  for (Graph* g : graphsCalleesFirst(m)) {
    std::vector<Op*> dead = foldGraph(*g, writes, activations);
    std::unordered_set<const Op*> topLevel;
    for (Op* op : dead) {
      if (op->enclosing()) eraseOp(m, *op);  // inside an exchange block: rare, one walk each
      else topLevel.insert(op);
    }
    if (!topLevel.empty()) eraseOps(m, *g, topLevel);
  }
  return success();
}

std::optional<double> scalarConstant(const Operand& o) {
  const Literal* lit = nullptr;
  if (o.kind() == Operand::Kind::Literal) lit = o.literal();
  else if (o.kind() == Operand::Kind::Value && o.value()->def && o.value()->def->code == OpCode::Const)
    lit = o.value()->def->init().get();
  if (!lit || lit->kind != Literal::Kind::Data || lit->values.size() != 1) return std::nullopt;
  return lit->values[0];
}

}  // namespace pir::passes
