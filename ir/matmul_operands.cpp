#include "ir/matmul_operands.h"

#include <utility>

#include "ir/op_attrs.h"

namespace pir {

bool matmulReadsTransposed(const Op& op, size_t i) {
  constexpr attrs::OpSet kProducts = attrs::ops(OpCode::MatMul, OpCode::MatMulScaledAddInplace);
  if (!kProducts.contains(op.code)) return false;
  const attrs::View<kProducts> a{op};
  return i == 0 ? a.transpose_a() : i == 1 && a.transpose_b();
}

Shape matmulLogicalShape(const Shape& stored, bool transposed) {
  Shape s = stored;
  if (transposed && s.size() >= 2) std::swap(s[s.size() - 1], s[s.size() - 2]);
  return s;
}

Shape matmulOperandShape(const Op& op, size_t i) {
  return matmulLogicalShape(op.operands.at(i).type().shape, matmulReadsTransposed(op, i));
}

}  // namespace pir
