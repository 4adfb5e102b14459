// IEEE 754 binary16 <-> binary32, exact bit manipulation (no hardware f16 needed).
#include "ir/half.h"

#include <bit>
#include <cstring>

namespace pir {

uint16_t floatToHalf(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t absBits = bits & 0x7fffffffu;

  if (absBits >= 0x7f800000u) {  // inf or nan
    if (absBits == 0x7f800000u) return sign | 0x7c00u;
    // Keep the top mantissa bits; force a quiet-nan bit so a nan never becomes inf.
    return static_cast<uint16_t>(sign | 0x7e00u | ((absBits >> 13) & 0x3ffu));
  }
  // 65520 = max half (65504) + half an ulp: rounds to inf under nearest-even.
  if (absBits >= 0x477ff000u) return sign | 0x7c00u;

  const int32_t exponent = static_cast<int32_t>(absBits >> 23) - 127;
  if (exponent >= -14) {  // normal half
    // Drop 13 mantissa bits with round-to-nearest-even; a carry into the exponent is
    // correct (it rounds up to the next binade).
    uint32_t rebased = absBits - (static_cast<uint32_t>(127 - 15) << 23);
    const uint32_t roundBit = 1u << 12;
    const uint32_t lsb = (rebased >> 13) & 1u;
    rebased += roundBit - 1 + lsb;
    return static_cast<uint16_t>(sign | (rebased >> 13));
  }
  if (exponent < -25) return sign;  // below half the smallest subnormal: ±0
  // Subnormal half: value = mantissa * 2^-24. Shift the full 24-bit significand.
  const uint32_t significand = (absBits & 0x7fffffu) | 0x800000u;
  const int shift = -exponent - 1;  // 14..24 → result = significand >> (shift)
  // value = significand * 2^(exponent-23); in units of 2^-24: significand * 2^(exponent+1)
  uint32_t result = significand >> shift;
  const uint32_t remainder = significand & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);  // result may carry into the normal range: fine
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    int e = -14;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    mantissa &= 0x3ffu;
    bits = sign | (static_cast<uint32_t>(e + 127) << 23) | (mantissa << 13);
  }
  return std::bit_cast<float>(bits);
}

}  // namespace pir
