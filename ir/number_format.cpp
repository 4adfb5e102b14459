// Shortest round-trip decimals laid out as std::to_chars' shortest form (the shorter of
// fixed and scientific; integral values have no ".0": tools.md prints `1`, not `1.0`).
#include "ir/number_format.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ir/half.h"

namespace pir {
namespace {

// double -> half with a single rounding: double -> float rounding to odd (truncate,
// then set the lowest bit if anything was lost) keeps enough information for the
// float -> half nearest-even step to be exact (float has 13 more mantissa bits).
float doubleToFloatRoundToOdd(double v) {
  if (!std::isfinite(v)) return static_cast<float>(v);
  if (std::fabs(v) >= 0x1p128) return std::copysign(std::numeric_limits<float>::infinity(), static_cast<float>(v));
  float truncated = static_cast<float>(v);  // nearest; fix up to truncation below
  if (std::fabs(static_cast<double>(truncated)) > std::fabs(v))
    truncated = std::nextafter(truncated, 0.0f);
  if (static_cast<double>(truncated) != v) {
    uint32_t bits = std::bit_cast<uint32_t>(truncated);
    bits |= 1u;
    truncated = std::bit_cast<float>(bits);
  }
  return truncated;
}

uint16_t doubleToHalf(double v) { return floatToHalf(doubleToFloatRoundToOdd(v)); }

// Lays out a decimal given as significant digits `digits` (no leading zeros, at least
// one digit) times 10^(exponent), where exponent is that of the first digit (scientific
// form d.ddd x 10^e). Like std::to_chars' shortest form: printf's %f or %e layout,
// whichever is shorter, %f on a tie (`100`, `1e+06`, `0.001`, `1e-05`); %e has at
// least two exponent digits. Fixed form pads with zeros, which read back the same.
void appendDecimal(std::string& out, bool negative, std::string_view digits, int exponent) {
  while (digits.size() > 1 && digits.back() == '0') digits.remove_suffix(1);
  if (negative) out += '-';
  const int numDigits = static_cast<int>(digits.size());
  const int magnitude = exponent < 0 ? -exponent : exponent;
  const int scientificLength = numDigits + (numDigits > 1 ? 1 : 0) + 2 + (magnitude < 10 ? 2 : static_cast<int>(std::to_string(magnitude).size()));
  const int fixedLength = exponent < 0 ? 2 + (-exponent - 1) + numDigits
                                       : std::max(numDigits, exponent + 1) + (numDigits > exponent + 1 ? 1 : 0);
  if (scientificLength < fixedLength) {
    out += digits[0];
    if (numDigits > 1) {
      out += '.';
      out.append(digits.substr(1));
    }
    out += 'e';
    out += exponent < 0 ? '-' : '+';
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return;
  }
  if (exponent < 0) {
    out += "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out.append(digits);
    return;
  }
  // exponent >= 0: integral part has exponent+1 digits.
  const int integralDigits = exponent + 1;
  if (numDigits <= integralDigits) {
    out.append(digits);
    out.append(static_cast<size_t>(integralDigits - numDigits), '0');
  } else {
    out.append(digits.substr(0, static_cast<size_t>(integralDigits)));
    out += '.';
    out.append(digits.substr(static_cast<size_t>(integralDigits)));
  }
}

// Splits to_chars scientific output "d.ddde±XX" (no sign) into digits and exponent.
void appendScientificText(std::string& out, bool negative, std::string_view text) {
  const size_t ePos = text.find('e');
  std::string digits;
  for (size_t i = 0; i < ePos; ++i)
    if (text[i] != '.') digits += text[i];
  int exponent = 0;
  std::string_view expText = text.substr(ePos + 1);
  if (!expText.empty() && expText[0] == '+') expText.remove_prefix(1);
  std::from_chars(expText.data(), expText.data() + expText.size(), exponent);
  appendDecimal(out, negative, digits, exponent);
}

// f32/f64: std::to_chars' shortest round-trip form as it is.
template <typename Float>
void appendShortest(std::string& out, Float magnitude, bool negative) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, magnitude);
  if (negative) out += '-';
  out.append(buffer, static_cast<size_t>(result.ptr - buffer));
}

// Shortest digits that read back (decimal -> half, one rounding) to the same half.
void appendShortestHalf(std::string& out, double magnitude, bool negative) {
  const uint16_t target = doubleToHalf(magnitude);
  char buffer[64];
  // 5 significant digits always suffice for binary16 (ceil(11*log10(2))+1 = 5).
  for (int precision = 0; precision <= 8; ++precision) {
    auto result = std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific,
                                precision);
    double readBack = 0;
    std::from_chars(buffer, result.ptr, readBack);
    if (doubleToHalf(readBack) == target || precision == 8) {
      appendScientificText(out, negative, std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
      return;
    }
  }
}

}  // namespace

void appendNumber(std::string& out, double v, DType t) {
  if (t == DType::Bool) {
    out += v != 0 ? "true" : "false";
    return;
  }
  if (isInteger(t)) {
    // Callers pass stored (in-range) values; clamp anyway so bad input is not UB.
    out += std::to_string(static_cast<int64_t>(roundToDType(v, t)));
    return;
  }
  if (std::isnan(v)) {
    out += "nan";
    return;
  }
  const bool negative = std::signbit(v);
  if (std::isinf(v)) {
    out += negative ? "-inf" : "inf";
    return;
  }
  const double magnitude = std::fabs(v);
  if (magnitude == 0) {
    out += negative ? "-0" : "0";
    return;
  }
  switch (t) {
    case DType::F16:
      appendShortestHalf(out, static_cast<double>(halfToFloat(doubleToHalf(magnitude))), negative);
      break;
    case DType::F32:
      appendShortest(out, static_cast<float>(magnitude), negative);
      break;
    default:
      appendShortest(out, magnitude, negative);
      break;
  }
}

double roundToDType(double v, DType t) {
  switch (t) {
    case DType::Bool:
      return v != 0 ? 1.0 : 0.0;
    case DType::F16:
      return static_cast<double>(halfToFloat(doubleToHalf(v)));
    case DType::F32:
      return static_cast<double>(roundToFloat(v));
    case DType::F64:
      return v;
    default:
      break;
  }
  // Integers: truncate toward zero, saturate at the dtype's range; nan -> 0.
  if (std::isnan(v)) return 0.0;
  const double truncated = std::trunc(v);
  if (truncated < dtypeMin(t)) return dtypeMin(t);
  if (truncated > dtypeMax(t)) return dtypeMax(t);
  return truncated;
}

}  // namespace pir
