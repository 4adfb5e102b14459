// floor, ceil and round (half to even) are exact: the SIMD table's loops on every
// instruction set, and the ops' kernels on f16, f32 and f64 tensors of random shapes,
// must give the C library's bits (std::floor, std::ceil, std::nearbyint in the default
// rounding mode) on values of every magnitude, halves, ±0, subnormals, the integers
// next to 2^p (p the mantissa bits), infinities and NaN; at 1, 2 and 3 kernel threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ir/half.h"
#include "ir/ir.h"
#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

template <class S> S reference(simd::UnaryKind kind, S v) {
  if (kind == simd::kFloor) return std::floor(v);
  if (kind == simd::kCeil) return std::ceil(v);
  return std::nearbyint(v);
}

template <class S> bool sameBits(S a, S b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof(S)) == 0;
}

// Values of every kind: random magnitudes from 2^-150 to 2^70 either sign, halves and
// near-halves, the neighbourhood of 2^p, specials.
template <class S> std::vector<S> testValues(std::mt19937& rng) {
  constexpr int p = std::numeric_limits<S>::digits - 1;
  const S big = std::ldexp(S(1), p);
  std::vector<S> v = {S(0), S(-0.0), S(0.5), S(-0.5), S(1.5), S(-1.5), S(2.5), S(-2.5), S(0.49999997), S(-0.3),
                      S(0.7), S(-0.7), S(1), S(-1), big, -big, big - S(0.5), -(big - S(0.5)), big / 2 + S(0.5),
                      -(big / 2 + S(0.5)), big * 2, std::numeric_limits<S>::max(), std::numeric_limits<S>::lowest(),
                      std::numeric_limits<S>::denorm_min(), -std::numeric_limits<S>::denorm_min(),
                      std::numeric_limits<S>::min(), std::numeric_limits<S>::infinity(),
                      -std::numeric_limits<S>::infinity(), std::numeric_limits<S>::quiet_NaN()};
  for (int i = -16; i <= 16; ++i) {  // steps of 1/2 around 2^p (rounded to S above it)
    const S x = static_cast<S>(static_cast<double>(big) + 0.5 * i);
    v.push_back(x);
    v.push_back(-x);
  }
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-150, 70), coin(0, 1);
  for (int i = 0; i < 20000; ++i) {
    const S x = static_cast<S>(std::ldexp(mantissa(rng), exponent(rng)));
    v.push_back(coin(rng) ? x : -x);
  }
  for (int i = 0; i < 2000; ++i) v.push_back(static_cast<S>(std::uniform_int_distribution<int>(-4000, 4000)(rng)) / 4);
  return v;
}

template <class S> void expectTableExact(const simd::TypedTable<S>& t, const std::vector<S>& x, const char* what) {
  for (simd::UnaryKind kind : {simd::kFloor, simd::kCeil, simd::kRound}) {
    std::vector<S> y(x.size());
    t.unary[kind](x.data(), y.data(), static_cast<int64_t>(x.size()));
    for (size_t i = 0; i < x.size(); ++i)
      if (!sameBits(y[i], reference(kind, x[i]))) {
        ADD_FAILURE() << what << " kind " << kind << " of " << x[i] << ": " << y[i] << ", want "
                      << reference(kind, x[i]);
        break;
      }
  }
}

TEST(RoundingOps, TableLoopsAreExactOnEveryInstructionSet) {
  std::mt19937 rng(3);
  const std::vector<float> xf = testValues<float>(rng);
  const std::vector<double> xd = testValues<double>(rng);
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    SCOPED_TRACE(isa);
    expectTableExact(t->f32, xf, "f32");
    expectTableExact(t->f64, xd, "f64");
  }
}

// The ops on tensors of random shapes and dtypes: every element the C library's
// (f16 rounded from its f32 result, which is exact), the same bytes at any thread count.
TEST(RoundingOps, KernelsAreExactAtAnyThreadCount) {
  std::mt19937 rng(9);
  const std::vector<double> pool = testValues<double>(rng);
  const int before = simd::kernelThreads();
  for (int trial = 0; trial < 30; ++trial) {
    const DType dt = trial % 3 == 0 ? DType::F64 : trial % 3 == 1 ? DType::F32 : DType::F16;
    Shape shape;
    const int rank = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int d = 0; d < rank; ++d) shape.push_back(std::uniform_int_distribution<int64_t>(1, trial < 3 ? 300 : 40)(rng));
    const TensorType type{dt, shape};
    const int64_t n = type.numElements();
    const size_t size = static_cast<size_t>(dtypeSize(dt));
    std::vector<unsigned char> x(static_cast<size_t>(n) * size);
    std::vector<double> stored(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const double v = pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
      unsigned char* p = x.data() + static_cast<size_t>(i) * size;
      if (dt == DType::F64) {
        std::memcpy(p, &v, 8);
        stored[static_cast<size_t>(i)] = v;
      } else if (dt == DType::F32) {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
        stored[static_cast<size_t>(i)] = f;
      } else {
        const uint16_t h = floatToHalf(static_cast<float>(v));
        std::memcpy(p, &h, 2);
        stored[static_cast<size_t>(i)] = halfToFloat(h);
      }
    }
    for (auto [code, kind] : {std::pair{OpCode::Floor, simd::kFloor}, std::pair{OpCode::Ceil, simd::kCeil},
                              std::pair{OpCode::Round, simd::kRound}}) {
      SCOPED_TRACE(type.str() + " kind " + std::to_string(kind));
      Op op;
      op.code = code;
      const std::vector<TensorType> types = {type};
      std::vector<std::vector<unsigned char>> results;
      for (int threads : {1, 2, 3}) {
        simd::setKernelThreads(threads);
        PreparedKernel k = prepareKernel(op, types, types);
        std::vector<unsigned char> y(x.size(), 0xCD);
        TensorRef in{x.data(), &type}, out{y.data(), &type};
        KernelContext ctx;
        k(&in, &out, ctx);
        results.push_back(std::move(y));
      }
      EXPECT_EQ(results[0], results[1]);
      EXPECT_EQ(results[0], results[2]);
      for (int64_t i = 0; i < n; ++i) {
        const unsigned char* p = results[0].data() + static_cast<size_t>(i) * size;
        const double v = stored[static_cast<size_t>(i)];
        bool same;
        if (dt == DType::F64) {
          double got;
          std::memcpy(&got, p, 8);
          same = sameBits(got, reference(kind, v));
        } else if (dt == DType::F32) {
          float got;
          std::memcpy(&got, p, 4);
          same = sameBits(got, reference(kind, static_cast<float>(v)));
        } else {
          uint16_t got;
          std::memcpy(&got, p, 2);
          const uint16_t want = floatToHalf(reference(kind, static_cast<float>(v)));
          same = got == want || (std::isnan(v) && std::isnan(halfToFloat(got)));
        }
        if (!same) {
          ADD_FAILURE() << "element " << i << " of value " << v;
          break;
        }
      }
    }
  }
  simd::setKernelThreads(before);
}

}  // namespace
}  // namespace pir::vm
