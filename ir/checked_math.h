// Checked integer arithmetic for sizes and shapes: every byte count, element count
// and shape rule goes through these, so overflow is a reported error (or a
// saturated size that a limit check then rejects), never a wrapped value.
#pragma once
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
template <typename T>
std::optional<T> checkedSub(T a, T b) {
  T r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
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

}  // namespace pir
