// f32 log2 (the SIMD table's ln x / ln 2 in double, vm/simd_impl.h) against log2 in
// long double on every instruction set: within 0.51 ulp over positive values of every
// binade (subnormals too), exact on powers of 2, and the special values (±0 to -inf,
// negatives and NaN to NaN, +inf to itself, a NaN input's own bits); the op's kernel
// on random shapes gives the table's bits, the same at 1, 2 and 3 kernel threads.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ir/ir.h"
#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

// |got - want| in units of the f32 ulp at want.
double ulps(float got, long double want) {
  const float rounded = static_cast<float>(want);
  const float next = std::nextafter(std::fabs(rounded), std::numeric_limits<float>::infinity());
  const long double ulp = static_cast<long double>(next) - std::fabs(static_cast<long double>(rounded));
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

std::vector<float> positives(std::mt19937& rng) {
  std::vector<float> v;
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-149, 127);
  for (int i = 0; i < 100000; ++i) {
    const float x = static_cast<float>(std::ldexp(mantissa(rng), exponent(rng)));
    if (x > 0 && std::isfinite(x)) v.push_back(x);
  }
  for (uint32_t b = std::bit_cast<uint32_t>(0.98f); b < std::bit_cast<uint32_t>(1.03f); b += 7)
    v.push_back(std::bit_cast<float>(b));  // around 1, where log2 is near 0
  return v;
}

TEST(Log2, TableIsWithinHalfAnUlpOnEveryInstructionSet) {
  std::mt19937 rng(13);
  const std::vector<float> x = positives(rng);
  const float nan = std::bit_cast<float>(0x7fc12345u);
  const std::vector<float> special = {0.0f, -0.0f, -1.0f, -std::numeric_limits<float>::infinity(),
                                      std::numeric_limits<float>::infinity(), nan};
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    SCOPED_TRACE(isa);
    std::vector<float> y(x.size());
    t->f32.unary[simd::kLog2](x.data(), y.data(), static_cast<int64_t>(x.size()));
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, ulps(y[i], std::log2(static_cast<long double>(x[i]))));
    EXPECT_LT(worst, 0.51);
    for (int k = -149; k <= 127; ++k) {
      const float p = std::ldexp(1.0f, k), want = static_cast<float>(k);
      float got;
      t->f32.unary[simd::kLog2](&p, &got, 1);
      ASSERT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want)) << "2^" << k;
    }
    std::vector<float> s(special.size());
    t->f32.unary[simd::kLog2](special.data(), s.data(), static_cast<int64_t>(s.size()));
    EXPECT_EQ(s[0], -std::numeric_limits<float>::infinity());
    EXPECT_EQ(s[1], -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(s[2]));
    EXPECT_TRUE(std::isnan(s[3]));
    EXPECT_EQ(s[4], std::numeric_limits<float>::infinity());
    EXPECT_EQ(std::bit_cast<uint32_t>(s[5]), std::bit_cast<uint32_t>(nan));
  }
}

TEST(Log2, KernelGivesTheTablesBitsAtAnyThreadCount) {
  std::mt19937 rng(21);
  const std::vector<float> pool = positives(rng);
  const int before = simd::kernelThreads();
  for (int trial = 0; trial < 10; ++trial) {
    Shape shape;
    const int rank = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int d = 0; d < rank; ++d) shape.push_back(std::uniform_int_distribution<int64_t>(1, trial < 2 ? 400 : 30)(rng));
    const TensorType type{DType::F32, shape};
    const int64_t n = type.numElements();
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) v = pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
    std::vector<float> want(x.size());
    simd::table().f32.unary[simd::kLog2](x.data(), want.data(), n);
    Op op;
    op.code = OpCode::Log2;
    const std::vector<TensorType> types = {type};
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      PreparedKernel k = prepareKernel(op, types, types);
      std::vector<float> y(x.size(), -1.0f);
      TensorRef in{x.data(), &type}, out{y.data(), &type};
      KernelContext ctx;
      k(&in, &out, ctx);
      EXPECT_EQ(std::memcmp(y.data(), want.data(), y.size() * sizeof(float)), 0)
          << type.str() << " at " << threads << " threads";
    }
  }
  simd::setKernelThreads(before);
}

}  // namespace
}  // namespace pir::vm
