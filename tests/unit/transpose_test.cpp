// The per-ISA transpose loops (vm/simd_kernels.h): every ISA the CPU has, every
// element size, shapes with and without whole register tiles, against the
// definition dst[c*rows + r] = src[r*cols + c], bit for bit (random bit
// patterns, so NaN payloads must pass unchanged).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

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
