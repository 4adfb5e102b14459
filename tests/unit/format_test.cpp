// f16 conversions, number text (ir/number_format.h) and tensor printing (vm/format.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "ir/half.h"
#include "ir/number_format.h"
#include "vm/format.h"

using namespace pir;

namespace {

double fromHalfBits(uint16_t bits) { return static_cast<double>(halfToFloat(bits)); }

TEST(Half, DecodesSpecialEncodings) {
  EXPECT_EQ(fromHalfBits(0x3c00), 1.0);
  EXPECT_EQ(fromHalfBits(0xc000), -2.0);
  EXPECT_EQ(fromHalfBits(0x7bff), 65504.0);
  EXPECT_EQ(fromHalfBits(0x0001), std::ldexp(1.0, -24));  // smallest subnormal
  EXPECT_EQ(fromHalfBits(0x03ff), std::ldexp(1023.0, -24));  // largest subnormal
  EXPECT_EQ(fromHalfBits(0x0400), std::ldexp(1.0, -14));  // smallest normal
  EXPECT_TRUE(std::signbit(fromHalfBits(0x8000)));
  EXPECT_EQ(fromHalfBits(0x7c00), std::numeric_limits<double>::infinity());
  EXPECT_EQ(fromHalfBits(0xfc00), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(fromHalfBits(0x7e00)));
}

TEST(Half, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float f = halfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f)))) << bits;
      continue;
    }
    ASSERT_EQ(floatToHalf(f), bits) << "half bits " << bits;
  }
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even).
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  // Just above halfway rounds up.
  EXPECT_EQ(floatToHalf(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)), 0x3c01);
  // Overflow: 65519 rounds down to 65504, 65520 (halfway to 2^16) to inf.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xfc00);
  // Subnormals: 2^-25 is a tie between 0 and 2^-24 (goes to 0); 3*2^-26 rounds up.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -26)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 ulp: tie to even (2)
  EXPECT_EQ(floatToHalf(-std::ldexp(1.0f, -30)), 0x8000);  // underflows to -0
  // The largest subnormal plus half an ulp carries into the smallest normal.
  EXPECT_EQ(floatToHalf(std::ldexp(1023.5f, -24)), 0x0400);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
}

TEST(NumberFormat, FloatsUseShortestRoundTripInTheirOwnWidth) {
  EXPECT_EQ(formatNumber(0.1, DType::F64), "0.1");
  EXPECT_EQ(formatNumber(roundToDType(0.1, DType::F32), DType::F32), "0.1");
  EXPECT_EQ(formatNumber(roundToDType(0.1, DType::F16), DType::F16), "0.1");
  EXPECT_EQ(formatNumber(1.0 / 3, DType::F64), "0.3333333333333333");
  EXPECT_EQ(formatNumber(roundToDType(1.0 / 3, DType::F32), DType::F32), "0.33333334");
  EXPECT_EQ(formatNumber(roundToDType(1.0 / 3, DType::F16), DType::F16), "0.3333");
  EXPECT_EQ(formatNumber(roundToDType(123.456, DType::F16), DType::F16), "123.44");
  EXPECT_EQ(formatNumber(65504, DType::F16), "65500");  // numpy: 65500.0
  EXPECT_EQ(formatNumber(60000, DType::F16), "60000");  // a tie with 6e+04: fixed
  EXPECT_EQ(formatNumber(1000, DType::F16), "1000");
  EXPECT_EQ(formatNumber(std::ldexp(1.0, -14), DType::F16), "6.104e-05");
  EXPECT_EQ(formatNumber(std::ldexp(1.0, -24), DType::F16), "6e-08");
  // An f32 value printed as f64 shows its binary expansion.
  EXPECT_EQ(formatNumber(roundToDType(0.1, DType::F32), DType::F64), "0.10000000149011612");
}

// The layout is std::to_chars' shortest form: fixed or scientific, whichever is
// shorter, fixed on a tie (never `100000000` for 1e8).
TEST(NumberFormat, LayoutIsTheShorterOfFixedAndScientific) {
  EXPECT_EQ(formatNumber(1, DType::F32), "1");
  EXPECT_EQ(formatNumber(-2.5, DType::F32), "-2.5");
  EXPECT_EQ(formatNumber(100, DType::F64), "100");
  EXPECT_EQ(formatNumber(1e-8, DType::F64), "1e-08");
  EXPECT_EQ(formatNumber(roundToDType(1e-8, DType::F32), DType::F32), "1e-08");
  EXPECT_EQ(formatNumber(0.0001, DType::F64), "1e-04");
  EXPECT_EQ(formatNumber(0.001, DType::F64), "0.001");  // a tie: fixed
  EXPECT_EQ(formatNumber(0.00015, DType::F64), "0.00015");
  EXPECT_EQ(formatNumber(1e8, DType::F64), "1e+08");
  EXPECT_EQ(formatNumber(1e6, DType::F32), "1e+06");
  EXPECT_EQ(formatNumber(1e5, DType::F32), "1e+05");
  EXPECT_EQ(formatNumber(12345, DType::F32), "12345");
  EXPECT_EQ(formatNumber(123456789, DType::F64), "123456789");
  EXPECT_EQ(formatNumber(2.5e6, DType::F64), "2500000");
  EXPECT_EQ(formatNumber(0.00001, DType::F64), "1e-05");
  EXPECT_EQ(formatNumber(1.5e-7, DType::F64), "1.5e-07");
  EXPECT_EQ(formatNumber(1e15, DType::F64), "1e+15");
  EXPECT_EQ(formatNumber(1e16, DType::F64), "1e+16");
  EXPECT_EQ(formatNumber(1.5e20, DType::F64), "1.5e+20");
  EXPECT_EQ(formatNumber(1e300, DType::F64), "1e+300");
  EXPECT_EQ(formatNumber(5e-324, DType::F64), "5e-324");
  EXPECT_EQ(formatNumber(123456789012345680.0, DType::F64), "123456789012345680");
  EXPECT_EQ(formatNumber(12.0625, DType::F64), "12.0625");
  EXPECT_EQ(formatNumber(-0.0, DType::F32), "-0");
  EXPECT_EQ(formatNumber(0.0, DType::F16), "0");
  EXPECT_EQ(formatNumber(NAN, DType::F32), "nan");
  EXPECT_EQ(formatNumber(-NAN, DType::F64), "nan");
  EXPECT_EQ(formatNumber(INFINITY, DType::F16), "inf");
  EXPECT_EQ(formatNumber(-INFINITY, DType::F32), "-inf");
}

TEST(NumberFormat, IntegersAndBooleans) {
  EXPECT_EQ(formatNumber(7, DType::I32), "7");
  EXPECT_EQ(formatNumber(-2147483648.0, DType::I32), "-2147483648");
  EXPECT_EQ(formatNumber(4294967295.0, DType::U32), "4294967295");
  EXPECT_EQ(formatNumber(1, DType::Bool), "true");
  EXPECT_EQ(formatNumber(0, DType::Bool), "false");
}

TEST(NumberFormat, RoundToDType) {
  EXPECT_EQ(roundToDType(2.9, DType::I32), 2);
  EXPECT_EQ(roundToDType(-2.9, DType::I8), -2);
  EXPECT_EQ(roundToDType(300, DType::U8), 255);
  EXPECT_EQ(roundToDType(-5, DType::U16), 0);
  EXPECT_EQ(roundToDType(-1e20, DType::I32), -2147483648.0);
  EXPECT_EQ(roundToDType(NAN, DType::I16), 0);
  EXPECT_EQ(roundToDType(0.5, DType::Bool), 1);
  EXPECT_EQ(roundToDType(0, DType::Bool), 0);
  EXPECT_EQ(roundToDType(0.1, DType::F32), static_cast<double>(0.1f));
  EXPECT_EQ(roundToDType(1e-8, DType::F16), 0.0);
  EXPECT_EQ(roundToDType(70000, DType::F16), INFINITY);
  // One rounding from double: 1 + 2^-11 + 2^-40 is just above the half-way point, so
  // it rounds up (rounding first to float would lose the 2^-40 and tie to 1).
  EXPECT_EQ(roundToDType(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), DType::F16),
            1.0 + std::ldexp(1.0, -10));
}

TEST(NumberFormat, EveryHalfPrintsShortestAndReadsBack) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double v = fromHalfBits(static_cast<uint16_t>(bits));
    if (!std::isfinite(v)) continue;
    const std::string text = formatNumber(v, DType::F16);
    const double readBack = std::strtod(text.c_str(), nullptr);
    ASSERT_EQ(floatToHalf(static_cast<float>(roundToDType(readBack, DType::F16))), bits) << text;
  }
}

std::vector<int32_t> iota32(int n) {
  std::vector<int32_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(TensorFormat, NestedListsAndScalars) {
  const float m[] = {4.5f, 5.5f, 10.5f, 11.5f};
  EXPECT_EQ(vm::formatTensor(DType::F32, {2, 2}, m), "[[4.5, 5.5], [10.5, 11.5]]");
  const int32_t seven = 7;
  EXPECT_EQ(vm::formatTensor(DType::I32, {}, &seven), "7");
  const uint8_t flags[] = {1, 0};
  EXPECT_EQ(vm::formatValueLine("%m", DType::Bool, {2}, flags), "%m: bool[2] = [true, false]");
  const float w[] = {0.1f, -0.2f, 1e-8f};
  EXPECT_EQ(vm::formatValueLine("%W", DType::F32, {3}, w), "%W: f32[3] = [0.1, -0.2, 1e-08]");
  EXPECT_EQ(vm::formatValueLine("%n", DType::I32, {}, &seven), "%n: i32[] = 7");
  const uint16_t halves[] = {floatToHalf(0.1f), floatToHalf(-3.0f)};
  EXPECT_EQ(vm::formatTensor(DType::F16, {1, 2, 1}, halves), "[[[0.1], [-3]]]");
  const double d[] = {0.1, 2};
  EXPECT_EQ(vm::formatTensor(DType::F64, {2}, d), "[0.1, 2]");
  const int8_t small[] = {-128, 127};
  EXPECT_EQ(vm::formatTensor(DType::I8, {2}, small), "[-128, 127]");
}

TEST(TensorFormat, EmptyTensors) {
  EXPECT_EQ(vm::formatTensor(DType::F32, {0}, nullptr), "[]");
  EXPECT_EQ(vm::formatTensor(DType::F32, {2, 0}, nullptr), "[[], []]");
  EXPECT_EQ(vm::formatTensor(DType::I32, {0, 3}, nullptr), "[]");
}

TEST(TensorFormat, SummarisesAbove1000Elements) {
  const auto values = iota32(2000);
  EXPECT_EQ(vm::formatTensor(DType::I32, {2000}, values.data()), "[0, 1, 2, ..., 1997, 1998, 1999]");
  EXPECT_EQ(vm::formatTensor(DType::I32, {1001}, values.data()), "[0, 1, 2, ..., 998, 999, 1000]");
  // Exactly 1000 elements print whole.
  const std::string whole = vm::formatTensor(DType::I32, {1000}, values.data());
  EXPECT_EQ(whole.find("..."), std::string::npos);
  EXPECT_EQ(whole.substr(whole.size() - 10), " 998, 999]");

  EXPECT_EQ(vm::formatTensor(DType::I32, {20, 100}, values.data()),
            "[[0, 1, 2, ..., 97, 98, 99], [100, 101, 102, ..., 197, 198, 199], "
            "[200, 201, 202, ..., 297, 298, 299], ..., [1700, 1701, 1702, ..., 1797, 1798, 1799], "
            "[1800, 1801, 1802, ..., 1897, 1898, 1899], [1900, 1901, 1902, ..., 1997, 1998, 1999]]");
  // Axes of length <= 6 are never elided.
  EXPECT_EQ(vm::formatTensor(DType::I32, {2, 1000}, values.data()),
            "[[0, 1, 2, ..., 997, 998, 999], [1000, 1001, 1002, ..., 1997, 1998, 1999]]");
}

}  // namespace
