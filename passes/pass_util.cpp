#include <stdexcept>

#include "ir/rewriter.h"
#include "passes/passes.h"

namespace pir::passes {

bool isUserNamedInMain(const Value& v) { return v.graph && v.graph->isMain && !v.generatedName; }

std::vector<Graph*> graphsCalleesFirst(Module& m) {
  std::vector<Graph*> out;
  for (auto& g : m.graphs) out.push_back(g.get());
  out.push_back(m.main.get());
  return out;
}

void moveOpAfter(Module& m, Op& op, Op* after) {
  Graph& g = *op.parent;
  if (op.enclosing || (after && (after->enclosing || after->parent != &g)))
    throw std::logic_error("moveOpAfter: not top-level ops of one graph");
  ptrdiff_t from = positionOf(op);
  if (from < 0) throw std::logic_error("moveOpAfter: op not in its graph");
  std::unique_ptr<Op> owned = std::move(g.ops[static_cast<size_t>(from)]);
  g.ops.erase(g.ops.begin() + from);
  size_t to = 0;
  if (after) {
    ptrdiff_t p = positionOf(*after);
    if (p < 0) throw std::logic_error("moveOpAfter: anchor not in its graph");
    to = static_cast<size_t>(p) + 1;
  }
  Op* raw = owned.get();
  g.ops.insert(g.ops.begin() + static_cast<ptrdiff_t>(to), std::move(owned));
  m.touch();
  // Undo: back to position `from` (everything after the move is undone first).
  m.journal([&g, raw, from]() {
    for (size_t i = 0; i < g.ops.size(); ++i)
      if (g.ops[i].get() == raw) {
        std::unique_ptr<Op> o = std::move(g.ops[i]);
        g.ops.erase(g.ops.begin() + static_cast<ptrdiff_t>(i));
        g.ops.insert(g.ops.begin() + from, std::move(o));
        return;
      }
  });
}

}  // namespace pir::passes
