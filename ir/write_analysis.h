// Which parameters each graph writes in place (ir/rewriter.h
// paramsWrittenInPlace), memoised for one walk over a module (the VM's compile,
// the fold-transposes pass), and the flattened op order both work on.
#pragma once
#include <memory>
#include <unordered_map>
#include <vector>

#include "ir/ir.h"
#include "ir/rewriter.h"

namespace pir {

class WriteAnalysis {
 public:
  const std::vector<bool>& paramsWritten(const Graph* g) {
    auto it = memo_.find(g);
    if (it != memo_.end()) return it->second;
    return memo_[g] = paramsWrittenInPlace(*g);
  }

  // True when `op` writes anything in place: its in-place operand, or a
  // by-reference argument its callee writes.
  bool writesInPlace(const Op& op) {
    if (op.info().inplaceOperand >= 0) return true;
    for (const CalleeRef& c : op.callees) {
      const std::vector<bool>& w = paramsWritten(c.graph);
      for (size_t i = 0; i < w.size() && i < c.graph->params.size(); ++i)
        if (w[i] && c.graph->params[i]->byRef) return true;
    }
    return false;
  }

  // The ops of `ops` in program order, exchange blocks replaced by their bodies.
  static void flatten(const std::vector<std::unique_ptr<Op>>& ops, std::vector<const Op*>& out) {
    for (auto& op : ops) {
      if (op->info().has(F_REGION)) flatten(op->region(), out);
      else out.push_back(op.get());
    }
  }

 private:
  std::unordered_map<const Graph*, std::vector<bool>> memo_;
};

}  // namespace pir
