#include "ir/op_work.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "ir/checked_math.h"
#include "ir/matmul_operands.h"
#include "ir/op_attrs.h"

namespace pir {
namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

uint64_t elementsOf(const TensorType& t) { return static_cast<uint64_t>(std::max<int64_t>(t.numElements(), 0)); }

// The ops whose kernels slide a window over their input.
constexpr attrs::OpSet kWindowOps = attrs::kernelFamily("Pool") | attrs::kernelFamily("MaxPoolGrad") |
                                    attrs::kernelFamily("AveragePoolGrad") | attrs::kernelFamily("Lrn") |
                                    attrs::kernelFamily("LrnGrad");
constexpr attrs::OpSet kSelectOps = attrs::kernelFamily("TopK");

// The cells of one window (at least 1).
uint64_t windowCells(const Op& op) {
  const attrs::View<kWindowOps> a{op};
  uint64_t cells = 1;
  if (const auto kernel = a.kernel()) {
    for (int64_t k : *kernel) cells = saturatingMul(cells, static_cast<uint64_t>(std::max<int64_t>(k, 1)));
  } else if (const auto size = a.size()) {
    cells = static_cast<uint64_t>(std::max<int64_t>(*size, 1));
  }
  return cells;
}

// The smallest operand or result: one element per window position.
uint64_t windowPositions(const Op& op) {
  uint64_t smallest = kSaturated;
  for (const Operand& o : op.operands) smallest = std::min(smallest, elementsOf(o.type()));
  for (const Value* r : op.results)
    if (r) smallest = std::min(smallest, elementsOf(r->type));
  return smallest == kSaturated ? 0 : smallest;
}

}  // namespace

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

uint64_t kernelVisitsBeyondOperands(const Op& op) {
  if (const uint64_t macs = multiplyAddsPerResultElement(op); macs > 0)
    return !op.results.empty() && op.results[0] ? saturatingMul(elementsOf(op.results[0]->type), macs) : 0;
  if (kWindowOps.contains(op.code)) return saturatingMul(windowPositions(op), windowCells(op));
  if (kSelectOps.contains(op.code) && !op.operands.empty()) {
    const int64_t k = attrs::View<kSelectOps>{op}.k();
    const uint64_t comparisons = static_cast<uint64_t>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(k, 0))));
    return saturatingMul(elementsOf(op.operands[0].type()), std::max<uint64_t>(comparisons, 1));
  }
  return 0;
}

}  // namespace pir
