// Numbers as text: the shortest decimal that reads back to the same value in a
// given dtype (tools.md §3, language.md §10): 0.1, 1, 1e-08, -0, nan, inf, -inf.
#pragma once
#include <cmath>
#include <string>

#include "ir/dtype.h"

namespace pir {

// `v` holds a value of dtype `t` (already rounded to it). Integers print in
// decimal, bool as true/false, floats shortest-round-trip for their own width
// (f16 shortest for half precision), NumPy-like exponent form ("1e-08").
void appendNumber(std::string& out, double v, DType t);
inline std::string formatNumber(double v, DType t) {
  std::string s;
  appendNumber(s, v, t);
  return s;
}

// Rounds/converts a double to what dtype `t` stores (f16/f32 rounding, integer
// truncation toward zero with saturation, bool != 0), returned as double.
double roundToDType(double v, DType t);
// `v` rounded to float, to nearest even: from FLT_MAX + half an ulp up, infinity (the
// cast itself would be undefined beyond float's range). roundToDType's f32 case.
inline float roundToFloat(double v) {
  if (std::fabs(v) >= 0x1.ffffffp127 && std::isfinite(v)) return v < 0 ? -HUGE_VALF : HUGE_VALF;
  return static_cast<float>(v);
}

}  // namespace pir
