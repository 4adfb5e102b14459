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

  // Calls f(operand) for each operand `op` writes in place: its in-place operand,
  // and each by-reference argument its callees write.
  template <class F> void forEachWrittenOperand(const Op& op, F&& f) {
    const int target = op.info().inplaceOperand;
    if (target >= 0 && static_cast<size_t>(target) < op.operands.size()) f(op.operands[static_cast<size_t>(target)]);
    for (size_t c = 0; c < op.callees.size(); ++c) {
      const Graph& callee = *op.callees[c].graph;
      const std::vector<bool>& w = paramsWritten(&callee);
      auto args = op.args(c);
      for (size_t i = 0; i < w.size() && i < callee.params.size() && i < args.size(); ++i)
        if (w[i] && callee.params[i]->byRef) f(args[i]);
    }
  }

  // True when `op` writes anything in place: its in-place operand, or a
  // by-reference argument its callee writes.
  bool writesInPlace(const Op& op) {
    if (op.info().inplaceOperand >= 0) return true;
    bool any = false;
    forEachWrittenOperand(op, [&](const Operand&) { any = true; });
    return any;
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
