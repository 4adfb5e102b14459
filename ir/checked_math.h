// Checked integer arithmetic for sizes and shapes: every byte count, element count
// and shape rule goes through these, so overflow is a reported error (or a
// saturated size that a limit check then rejects), never a wrapped value.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

namespace pir {

// a * b, a + b, a - b; nullopt when the result does not fit in T.
template <typename T>
std::optional<T> checkedMul(T a, T b) {
  T r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
template <typename T>
std::optional<T> checkedAdd(T a, T b) {
  T r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Saturating at UINT64_MAX: for byte counts that are compared against a limit
// afterwards (UINT64_MAX is larger than any limit).
inline uint64_t saturatingMul(uint64_t a, uint64_t b) {
  return checkedMul(a, b).value_or(std::numeric_limits<uint64_t>::max());
}
inline uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return checkedAdd(a, b).value_or(std::numeric_limits<uint64_t>::max());
}

// x[start:stop:step] on an axis of `dim` elements (Python's slice.indices, then
// len(range(...))): the first index read and the number of elements. Written so
// that no step, even at the int64 limits, overflows; the verifier's shape rule
// and the kernel both use it, so the inferred length is the one copied.
struct SliceRange {
  int64_t begin = 0, count = 0;
};
inline SliceRange sliceRange(int64_t dim, int64_t start, int64_t stop, int64_t step) {
  auto clampIndex = [&](int64_t v, int64_t lo, int64_t hi) {
    if (v < 0) v = v < -dim ? -1 : v + dim;
    return std::clamp(v, lo, hi);
  };
  SliceRange r;
  if (step > 0) {
    const int64_t b = clampIndex(start, 0, dim), e = clampIndex(stop, 0, dim);
    r.begin = b;
    r.count = e > b ? (e - b - 1) / step + 1 : 0;
  } else {
    const int64_t b = clampIndex(start, -1, dim - 1), e = clampIndex(stop, -1, dim - 1);
    r.begin = b;
    r.count = b > e ? static_cast<int64_t>(static_cast<uint64_t>(b - e - 1) / (0 - static_cast<uint64_t>(step)) + 1) : 0;
  }
  return r;
}

// The number of elements of an axis of `dim` taken every `stride` (>= 1) from
// the first: ceil(dim / stride) without overflow.
inline int64_t stridedLength(int64_t dim, int64_t stride) { return dim > 0 ? (dim - 1) / stride + 1 : 0; }

}  // namespace pir
