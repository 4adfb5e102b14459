#include "device/merge_exchange.h"

#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/rewriter.h"

namespace pir::device {
namespace {

bool isMergeable(const Op& op) { return op.info().has(F_IO) && op.code != OpCode::Exchange && op.region().empty(); }

int writtenOperand(const Op& op) { return op.info().inplaceOperand; }  // ops.def: the `!` operand

// Placement attributes must agree for ops to share a block.
bool samePlacement(const Op& a, const Op& b) {
  for (const char* key : {"ipu", "tile_set", "tile", "tiles"}) {
    const Attr* x = a.attrs.find(key);
    const Attr* y = b.attrs.find(key);
    if (!x != !y) return false;
    if (x && !x->equals(*y)) return false;
  }
  return true;
}

// The runs of one graph to wrap: [first, last] of two or more ops each.
std::vector<std::pair<Op*, Op*>> runsOf(const Graph& g) {
  std::vector<std::pair<Op*, Op*>> runs;
  std::vector<Op*> run;
  std::unordered_set<const Value*> produced, read;
  auto flush = [&] {
    if (run.size() >= 2) runs.push_back({run.front(), run.back()});
    run.clear();
    produced.clear();
    read.clear();
  };
  auto dependsOnRun = [&](const Op& op) {
    const int w = writtenOperand(op);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& a = op.operands[i];
      if (a.kind() != Operand::Kind::Value) continue;
      if (produced.count(a.value())) return true;
      if (static_cast<int>(i) == w && read.count(a.value())) return true;
    }
    return false;
  };
  for (const auto& opPtr : g.ops) {
    Op& op = *opPtr;
    if (!isMergeable(op)) {
      flush();
      continue;
    }
    if (!run.empty() && (!samePlacement(*run.front(), op) || dependsOnRun(op))) flush();
    const int w = writtenOperand(op);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& a = op.operands[i];
      if (a.kind() != Operand::Kind::Value) continue;
      read.insert(a.value());
      if (static_cast<int>(i) == w) produced.insert(a.value());
    }
    for (const Value* r : op.results)
      if (r) produced.insert(r);
    run.push_back(&op);
  }
  flush();
  return runs;
}

size_t mergeGraph(Module& m, Graph& g) {
  std::vector<std::pair<Op*, Op*>> runs = runsOf(g);
  for (auto& [first, last] : runs) wrapInExchange(m, *first, *last);
  return runs.size();
}

}  // namespace

size_t mergeExchangeBlocks(Module& m) {
  size_t blocks = 0;
  for (auto& g : m.graphs) blocks += mergeGraph(m, *g);
  return blocks + mergeGraph(m, *m.main);
}

LogicalResult mergeExchange(Module& m, DiagnosticEngine&) {
  mergeExchangeBlocks(m);
  return success();
}

}  // namespace pir::device
