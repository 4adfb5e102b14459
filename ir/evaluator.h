// Evaluating one op on constant operands at compile time (fold-constants).
//
// The kernels live in vm/, which sits above ir/ and passes/: passes may not
// depend on the VM. So the interface is declared here and the VM implements it
// (vm/const_eval.h); the driver (repl/) hands an instance to the pass manager
// (passes::PipelineOptions::evaluator). Folding then computes exactly what the
// run would, with the same kernels, bit for bit.
#pragma once
#include <span>
#include <vector>

#include "ir/dtype.h"
#include "ir/ir.h"

namespace pir {

// A constant tensor: row-major element values of `type`, as doubles (exact for
// every stored dtype: ir/literal.h).
struct ConstTensor {
  TensorType type;
  std::vector<double> values;
};

class ConstantEvaluator {
 public:
  virtual ~ConstantEvaluator() = default;
  // The results of `op` (a pure, deterministic op with no callees and no
  // resource operands) on `inputs`, its tensor operands in order; result types
  // are op.results[i]->type. Returns false, leaving `results` unspecified, when
  // the op cannot be evaluated (no kernel, or a run-time error such as an index
  // out of range: the op then stays, so that the error happens where it did).
  virtual bool evaluate(const Op& op, std::span<const ConstTensor> inputs, std::vector<ConstTensor>& results) const = 0;
};

}  // namespace pir
