// The normalisation of one row shared by layer_norm, group_norm and layer_norm_grad,
// so that the forward and backward passes compute the same xhat bit for bit.
#pragma once

#include <cmath>
#include <cstdint>

#include "vm/simd_kernels.h"

namespace pir::vm::detail {

// xhat[0..n) = (x - mean) * rstd with mean = sum(x) / n and rstd = 1 / sqrt(sum((x -
// mean)^2) / n + epsilon), the sums in the SIMD table's documented order (which
// depends on the row alone), in one call of the SIMD table. Returns rstd.
template <class C> C normaliseRow(const C* x, int64_t n, C epsilon, C* xhat) {
  return simd::tableOf<C>().normaliseRow(x, n, epsilon, xhat);
}

}  // namespace pir::vm::detail
