// The normalisation of one row shared by layer_norm, group_norm and layer_norm_grad,
// so that the forward and backward passes compute the same xhat bit for bit.
#pragma once

#include <cmath>
#include <cstdint>

#include "vm/simd_kernels.h"

namespace pir::vm::detail {

// xhat[0..n) = (x - mean) * rstd with mean = sum(x) / n and rstd = 1 / sqrt(sum((x -
// mean)^2) / n + epsilon), the sums in the SIMD table's documented order (which
// depends on the row alone); `squares` is n elements of scratch. Returns rstd.
template <class C> C normaliseRow(const C* x, int64_t n, C epsilon, C* xhat, C* squares) {
  const auto& f = simd::tableOf<C>();
  const C count = static_cast<C>(n);
  const C mean = f.sum(x, n) / count;
  f.binary[simd::kSub][simd::kVecScalar](x, &mean, xhat, n);
  f.binary[simd::kMul][simd::kVecVec](xhat, xhat, squares, n);
  const C rstd = C(1) / std::sqrt(f.sum(squares, n) / count + epsilon);
  f.binary[simd::kMul][simd::kVecScalar](xhat, &rstd, xhat, n);
  return rstd;
}

}  // namespace pir::vm::detail
