#include "ir/op_work.h"

#include <algorithm>

#include "ir/matmul_operands.h"

namespace pir {

uint64_t multiplyAddsPerResultElement(const Op& op) {
  switch (op.info().costClass) {
    case CostClass::MatMul: {
      if (op.operands.empty()) return 0;
      const Shape a = matmulOperandShape(op, 0);
      return !a.empty() ? static_cast<uint64_t>(std::max<int64_t>(a.back(), 1)) : 1;
    }
    case CostClass::Conv: {
      if (op.operands.size() < 2) return 0;
      const TensorType& w = op.operands[1].type();
      return w.rank() >= 1 && w.shape[0] > 0 ? static_cast<uint64_t>(w.numElements() / w.shape[0]) : 1;
    }
    default: return 0;
  }
}

}  // namespace pir
