// The VM's implementation of ir/evaluator.h: evaluates one op on constant
// inputs with the kernels a run would use (vm/kernels.h), for fold-constants.
#pragma once
#include "ir/evaluator.h"

namespace pir::vm {

class KernelEvaluator final : public ConstantEvaluator {
 public:
  bool evaluate(const Op& op, std::span<const ConstTensor> inputs, std::vector<ConstTensor>& results) const override;
};

}  // namespace pir::vm
