// The per-ISA transpose loops (vm/simd_kernels.h): every ISA the CPU has, every
// element size, shapes with and without whole register tiles, against the
// definition dst[c*rows + r] = src[r*cols + c], bit for bit (random bit
// patterns, so NaN payloads must pass unchanged). And the strided copy of views
// whose innermost dim is contiguous, for every run length around its short-run path.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "vm/kernel_util.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

TEST(SimdTranspose, EveryIsaAndElementSizeMovesEveryElement) {
  const std::pair<int64_t, int64_t> shapes[] = {{0, 5},  {5, 0},  {1, 1},   {1, 37},  {37, 1},  {4, 4},  {8, 8},
                                                {7, 9},  {9, 7},  {16, 24}, {33, 17}, {64, 784}, {784, 64}, {40, 41},
                                                {3, 1000}, {1000, 3}};
  std::mt19937_64 rng(7);
  int checked = 0;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    for (int k = 0; k < 4; ++k) {
      const size_t es = size_t{1} << k;
      for (auto [rows, cols] : shapes) {
        const size_t n = static_cast<size_t>(rows * cols);
        std::vector<unsigned char> src(n * es), dst(n * es, 0xAB), want(n * es);
        for (auto& b : src) b = static_cast<unsigned char>(rng());
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            std::memcpy(&want[static_cast<size_t>(c * rows + r) * es], &src[static_cast<size_t>(r * cols + c) * es], es);
        t->transpose[k](src.data(), dst.data(), rows, cols);
        EXPECT_EQ(dst, want) << isa << " " << es << "-byte " << rows << "x" << cols;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 4 * static_cast<int>(std::size(shapes)));  // sse2 is always there
}

}  // namespace
}  // namespace pir::vm

namespace pir::vm {
namespace {

template <class S> void checkCompares(const simd::TypedTable<S>& t, const char* isa) {
  std::mt19937 rng(3);
  const S special[] = {S(0), S(-0.0), S(1), S(-1), S(0.5), std::numeric_limits<S>::infinity(),
                       -std::numeric_limits<S>::infinity(), std::numeric_limits<S>::quiet_NaN()};
  for (int64_t n : {0, 1, 3, 7, 8, 9, 16, 17, 33, 1029}) {
    std::vector<S> a(static_cast<size_t>(n) + 1), b(static_cast<size_t>(n) + 1);
    for (auto& v : a) v = special[rng() % std::size(special)];
    for (auto& v : b) v = special[rng() % std::size(special)];
    for (int k = 0; k < simd::kCompareCount; ++k)
      for (int mode = 0; mode < simd::kModeCount; ++mode) {
        std::vector<unsigned char> y(static_cast<size_t>(n) + 1, 7);
        t.compare[k][mode](a.data(), b.data(), reinterpret_cast<bool*>(y.data()), n);
        for (int64_t i = 0; i < n; ++i) {
          const S x = mode == simd::kScalarVec ? a[0] : a[i], z = mode == simd::kVecScalar ? b[0] : b[i];
          const bool want = k == simd::kEq ? x == z : k == simd::kNe ? x != z : k == simd::kGt ? x > z
                          : k == simd::kGe ? x >= z : k == simd::kLt ? x < z : x <= z;
          ASSERT_EQ(y[i], want ? 1 : 0) << isa << " kind " << k << " mode " << mode << " n " << n << " i " << i;
        }
        EXPECT_EQ(y[n], 7) << "wrote past the end";
      }
  }
}

TEST(SimdCompareAndWhere, EqualTheScalarDefinitionOnEveryIsa) {
  std::mt19937 rng(5);
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    checkCompares(t->f32, isa);
    checkCompares(t->f64, isa);
    for (int64_t n : {0, 1, 5, 8, 15, 16, 17, 100, 1029})
      for (int rep = 0; rep < 8; ++rep) {
        std::vector<unsigned char> c(static_cast<size_t>(n) + 1);
        std::vector<uint32_t> x(static_cast<size_t>(n) + 1), z(static_cast<size_t>(n) + 1),
            y(static_cast<size_t>(n) + 1, 0xDEADBEEF);
        for (auto& v : c) v = rng() & 1;
        for (auto& v : x) v = static_cast<uint32_t>(rng());
        for (auto& v : z) v = static_cast<uint32_t>(rng());
        t->where[2](reinterpret_cast<const bool*>(c.data()), x.data(), z.data(), y.data(), n, rep);
        for (int64_t i = 0; i < n; ++i) {
          const bool ci = c[(rep & 1) ? 0 : i];
          ASSERT_EQ(y[i], ci ? x[(rep & 2) ? 0 : i] : z[(rep & 4) ? 0 : i]) << isa << " rep " << rep << " i " << i;
        }
        EXPECT_EQ(y[n], 0xDEADBEEF);
      }
  }
}

// A transpose that keeps the last axis ([a, b, n] -> [b, a, n]: contiguous runs of n
// elements) for every n from 1 to 150 and every element size: each run crosses the
// short-run copy's 64-byte and 8-byte pieces and its 512-byte limit somewhere.
TEST(StridedCopy, ContiguousRunsOfEveryLengthMoveEveryByte) {
  std::mt19937 rng(7);
  for (int elemSize : {1, 2, 4, 8})
    for (int64_t n = 1; n <= 150; ++n) {
      const int64_t a = 3, b = 5;
      std::vector<uint8_t> src(static_cast<size_t>(a * b * n * elemSize));
      for (uint8_t& v : src) v = static_cast<uint8_t>(rng());
      std::vector<uint8_t> dst(src.size() + 64, 0xA5);  // a guard after the result
      const Shape shape = {b, a, n};
      const int64_t strides[] = {n, b * n, 1};  // source element strides per result dim
      detail::stridedCopy(dst.data(), src.data(), shape, strides, elemSize);
      for (int64_t i = 0; i < b; ++i)
        for (int64_t j = 0; j < a; ++j)
          ASSERT_EQ(0, std::memcmp(&dst[static_cast<size_t>(((i * a + j) * n) * elemSize)],
                                   &src[static_cast<size_t>(((j * b + i) * n) * elemSize)], static_cast<size_t>(n * elemSize)))
              << "element size " << elemSize << ", run " << n;
      for (size_t g = src.size(); g < dst.size(); ++g) ASSERT_EQ(dst[g], 0xA5) << "written past the result";
    }
}

}  // namespace
}  // namespace pir::vm
