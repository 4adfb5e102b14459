// IEEE 754 binary16 conversions (round to nearest even), for f16 tensors.
#pragma once
#include <cstdint>

namespace pir {
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);
}  // namespace pir
