// The pool kernels (vm/kernels_pool.cpp) against their window definitions, written
// here element by element: every output's cells in row-major order (max: a NaN sticks,
// else a greater value takes it; average: a sum from +0 over the real cells divided by
// their count, or by the cells inside the padded input), and the gradients adding their
// shares in (output row, cell, column) order. Random windows of 1 to 3 spatial dims
// with strides, dilations, paddings and ceil_mode; values with ties, -inf and NaN.
// The bits must be equal, at 1, 2 and 3 kernel threads, and the SIMD table's pool
// steps must equal their scalar loops on every instruction set.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "ir/ir.h"
#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

struct PoolCase {
  int spatial = 2;
  std::vector<int64_t> in, kernel, stride, dilation, padBegin, padEnd;
  bool ceilMode = false, countIncludePad = false;
  int64_t planes = 1;
};

Attr ints(const std::vector<int64_t>& v) {
  std::vector<Attr> items;
  for (int64_t x : v) items.push_back(Attr::integer(x));
  return Attr::list(std::move(items));
}

Op poolOp(OpCode code, const PoolCase& c, const std::vector<int64_t>& xShape) {
  Op op;
  op.code = code;
  op.attrs.set("kernel", ints(c.kernel));
  op.attrs.set("stride", ints(c.stride));
  op.attrs.set("dilation", ints(c.dilation));
  std::vector<int64_t> padding = c.padBegin;
  padding.insert(padding.end(), c.padEnd.begin(), c.padEnd.end());
  op.attrs.set("padding", ints(padding));
  op.attrs.set("ceil_mode", Attr::boolean(c.ceilMode));
  if (code == OpCode::AveragePool || code == OpCode::AveragePoolGrad)
    op.attrs.set("count_include_pad", Attr::boolean(c.countIncludePad));
  if (code == OpCode::AveragePoolGrad) op.attrs.set("shape", ints(xShape));
  return op;
}

// Output length along one axis (ONNX's rule; a ceil_mode window must start inside the
// input or its begin padding).
int64_t outLength(const PoolCase& c, int a) {
  const int64_t span = (c.kernel[a] - 1) * c.dilation[a] + 1, padded = c.in[a] + c.padBegin[a] + c.padEnd[a];
  const int64_t steps = padded - span;
  int64_t n = (c.ceilMode ? (steps + c.stride[a] - 1) / c.stride[a] : steps / c.stride[a]) + 1;
  if (c.ceilMode && (n - 1) * c.stride[a] >= c.in[a] + c.padBegin[a]) --n;
  return n;
}

// The window cells of output `o` (per axis: output position) in row-major order:
// calls f(flat cell index in the plane, real) for each, real = inside the input.
template <class F> void forEachCell(const PoolCase& c, const std::vector<int64_t>& o, F&& f) {
  std::vector<int64_t> j(static_cast<size_t>(c.spatial), 0);
  for (;;) {
    bool real = true;
    int64_t flat = 0;
    for (int a = 0; a < c.spatial; ++a) {
      const int64_t p = o[a] * c.stride[a] - c.padBegin[a] + j[a] * c.dilation[a];
      real = real && p >= 0 && p < c.in[a];
      flat = flat * c.in[a] + p;
    }
    f(flat, real);
    int a = c.spatial - 1;
    for (; a >= 0; --a) {
      if (++j[a] < c.kernel[a]) break;
      j[a] = 0;
    }
    if (a < 0) return;
  }
}

// The divisor of output `o`: its real cells, or with count_include_pad its cells
// inside the padded input.
int64_t divisor(const PoolCase& c, const std::vector<int64_t>& o) {
  int64_t n = 1;
  for (int a = 0; a < c.spatial; ++a) {
    int64_t k = 0;
    for (int64_t j = 0; j < c.kernel[a]; ++j) {
      const int64_t p = o[a] * c.stride[a] - c.padBegin[a] + j * c.dilation[a];
      k += c.countIncludePad ? (p >= -c.padBegin[a] && p < c.in[a] + c.padEnd[a]) : (p >= 0 && p < c.in[a]);
    }
    n *= k;
  }
  return n;
}

// Calls f(flat output index in the plane, position) for every output in row-major order.
template <class F> void forEachOutput(const std::vector<int64_t>& out, F&& f) {
  std::vector<int64_t> o(out.size(), 0);
  int64_t flat = 0;
  for (;;) {
    f(flat++, o);
    int a = static_cast<int>(out.size()) - 1;
    for (; a >= 0; --a) {
      if (++o[a] < out[a]) break;
      o[a] = 0;
    }
    if (a < 0) return;
  }
}

struct Reference {
  std::vector<float> maxOut, averageOut, maxGrad, averageGrad;
};

Reference reference(const PoolCase& c, const std::vector<int64_t>& out, const std::vector<float>& x,
                    const std::vector<float>& g) {
  int64_t inSize = 1, outSize = 1;
  for (int a = 0; a < c.spatial; ++a) inSize *= c.in[a], outSize *= out[a];
  Reference r;
  r.maxOut.assign(static_cast<size_t>(c.planes * outSize), 0);
  r.averageOut = r.maxOut;
  r.maxGrad.assign(static_cast<size_t>(c.planes * inSize), 0.0f);
  r.averageGrad = r.maxGrad;
  for (int64_t p = 0; p < c.planes; ++p) {
    const float* xp = x.data() + p * inSize;
    forEachOutput(out, [&](int64_t q, const std::vector<int64_t>& o) {
      float best = -INFINITY, sum = 0.0f;
      int64_t firstCell = -2, argmax = -1;
      bool nan = false;
      forEachCell(c, o, [&](int64_t cell, bool real) {
        if (firstCell == -2) firstCell = real ? cell : -1;  // the gradient's first holder
        if (!real) return;
        const float v = xp[cell];
        if (best == best && (v != v || v > best)) best = v;
        sum += v;
      });
      // The gradient's maximum: the first cell holds -inf's place, a greater one takes it.
      float gBest = -INFINITY;
      argmax = firstCell;
      forEachCell(c, o, [&](int64_t cell, bool real) {
        if (!real) return;
        const float v = xp[cell];
        nan = nan || v != v;
        if (v > gBest) gBest = v, argmax = cell;
      });
      const float gq = g[static_cast<size_t>(p * outSize + q)];
      r.maxOut[static_cast<size_t>(p * outSize + q)] = best;
      const int64_t n = divisor(c, o);
      r.averageOut[static_cast<size_t>(p * outSize + q)] = sum / static_cast<float>(n);
      if (!nan && argmax >= 0) r.maxGrad[static_cast<size_t>(p * inSize + argmax)] += gq;
    });
    // average_pool_grad: per output row (all axes but the last), per cell, per column.
    const int64_t width = out[static_cast<size_t>(c.spatial - 1)];
    forEachOutput(out, [&](int64_t q, const std::vector<int64_t>& o) {
      if (o[static_cast<size_t>(c.spatial - 1)] != 0) return;  // once per output row
      // The row's cells, then its columns.
      std::vector<int64_t> oc = o;
      std::vector<std::vector<std::pair<int64_t, bool>>> cellsOf(static_cast<size_t>(width));
      for (int64_t w = 0; w < width; ++w) {
        oc[static_cast<size_t>(c.spatial - 1)] = w;
        forEachCell(c, oc, [&](int64_t cell, bool real) { cellsOf[static_cast<size_t>(w)].push_back({cell, real}); });
      }
      const size_t cells = cellsOf[0].size();
      for (size_t k = 0; k < cells; ++k)
        for (int64_t w = 0; w < width; ++w) {
          const auto [cell, real] = cellsOf[static_cast<size_t>(w)][k];
          if (!real) continue;
          oc[static_cast<size_t>(c.spatial - 1)] = w;
          const float share = g[static_cast<size_t>(p * outSize + q + w)] / static_cast<float>(divisor(c, oc));
          r.averageGrad[static_cast<size_t>(p * inSize + cell)] += share;
        }
    });
  }
  return r;
}

std::vector<float> runKernel(const Op& op, std::vector<std::pair<const std::vector<float>*, TensorType>> ins,
                             const TensorType& outType) {
  std::vector<TensorType> inTypes;
  std::vector<TensorRef> inRefs;
  for (auto& [data, type] : ins) inTypes.push_back(type);
  for (size_t i = 0; i < ins.size(); ++i)
    inRefs.push_back(TensorRef{const_cast<float*>(ins[i].first->data()), &inTypes[i]});
  const std::vector<TensorType> outTypes = {outType};
  PreparedKernel k = prepareKernel(op, inTypes, outTypes);
  std::vector<float> out(static_cast<size_t>(outType.numElements()), 12345.0f);
  TensorRef o{out.data(), &outType};
  KernelContext ctx;
  k(inRefs.data(), &o, ctx);
  return out;
}

void expectSameBits(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool bothNan = got[i] != got[i] && want[i] != want[i];
    if (!bothNan && std::memcmp(&got[i], &want[i], sizeof(float)) != 0) {
      ADD_FAILURE() << what << " at " << i << ": " << got[i] << " != " << want[i];
      return;
    }
  }
}

TEST(PoolKernels, EqualTheWindowDefinitionsAtAnyThreadCount) {
  std::mt19937 rng(7);
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const int before = simd::kernelThreads();
  int tested = 0;
  for (int t = 0; t < 300; ++t) {
    PoolCase c;
    c.spatial = static_cast<int>(pick(1, 3));
    c.planes = pick(1, 5);
    for (int a = 0; a < c.spatial; ++a) {
      const bool last = a == c.spatial - 1;
      c.in.push_back(last ? pick(1, 70) : pick(1, 9));
      c.kernel.push_back(pick(1, 4));
      c.stride.push_back(pick(1, 10) <= 6 ? pick(1, 2) : pick(3, 4));
      c.dilation.push_back(pick(1, 4) == 1 ? 2 : 1);
      c.padBegin.push_back(pick(0, c.kernel.back() - 1));
      c.padEnd.push_back(pick(0, c.kernel.back() - 1));
    }
    c.ceilMode = pick(0, 3) == 0;
    c.countIncludePad = pick(0, 2) == 0;
    std::vector<int64_t> out;
    bool fits = true;
    for (int a = 0; a < c.spatial; ++a) {
      const int64_t span = (c.kernel[a] - 1) * c.dilation[a] + 1;
      fits = fits && span <= c.in[a] + c.padBegin[a] + c.padEnd[a];
      if (fits) out.push_back(outLength(c, a));
    }
    if (!fits) continue;
    std::vector<int64_t> xShape = {1, c.planes}, yShape = {1, c.planes};
    xShape.insert(xShape.end(), c.in.begin(), c.in.end());
    yShape.insert(yShape.end(), out.begin(), out.end());
    const TensorType xt{DType::F32, xShape}, yt{DType::F32, yShape};
    std::vector<float> x(static_cast<size_t>(xt.numElements())), g(static_cast<size_t>(yt.numElements()));
    for (float& v : x) {
      const int64_t r = pick(0, 99);
      v = r == 0 ? NAN : r == 1 ? -INFINITY : static_cast<float>(pick(-4, 4)) * 0.75f;  // ties
    }
    for (float& v : g) v = static_cast<float>(pick(-1000, 1000)) * 0.013f;
    const Reference want = reference(c, out, x, g);
    SCOPED_TRACE(testing::Message() << "case " << t << " " << xt.str() << " -> " << yt.str());
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      SCOPED_TRACE(testing::Message() << threads << " threads");
      expectSameBits(runKernel(poolOp(OpCode::MaxPool, c, xShape), {{&x, xt}}, yt), want.maxOut, "max_pool");
      expectSameBits(runKernel(poolOp(OpCode::AveragePool, c, xShape), {{&x, xt}}, yt), want.averageOut,
                     "average_pool");
      expectSameBits(runKernel(poolOp(OpCode::MaxPoolGrad, c, xShape), {{&x, xt}, {&g, yt}}, xt), want.maxGrad,
                     "max_pool_grad");
      expectSameBits(runKernel(poolOp(OpCode::AveragePoolGrad, c, xShape), {{&g, yt}}, xt), want.averageGrad,
                     "average_pool_grad");
    }
    ++tested;
  }
  simd::setKernelThreads(before);
  EXPECT_GT(tested, 200);
}

// Rows long enough to split over threads: a whole pool of [8, 16, 40, 52] at 1 and 3
// threads gives the same bits (the random cases above are mostly too small to split).
TEST(PoolKernels, LargePoolsGiveTheSameBitsOnAnyThreadCount) {
  PoolCase c;
  c.spatial = 2;
  c.planes = 128;
  c.in = {40, 52};
  c.kernel = {3, 3};
  c.stride = {2, 2};
  c.dilation = {1, 1};
  c.padBegin = {1, 1};
  c.padEnd = {1, 1};
  const std::vector<int64_t> xShape = {8, 16, 40, 52}, yShape = {8, 16, outLength(c, 0), outLength(c, 1)};
  const TensorType xt{DType::F32, xShape}, yt{DType::F32, yShape};
  std::vector<float> x(static_cast<size_t>(xt.numElements())), g(static_cast<size_t>(yt.numElements()));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
  for (size_t i = 0; i < g.size(); ++i) g[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i)));
  const int before = simd::kernelThreads();
  std::vector<std::vector<float>> first;
  for (int threads : {1, 3}) {
    simd::setKernelThreads(threads);
    std::vector<std::vector<float>> got = {
        runKernel(poolOp(OpCode::MaxPool, c, xShape), {{&x, xt}}, yt),
        runKernel(poolOp(OpCode::AveragePool, c, xShape), {{&x, xt}}, yt),
        runKernel(poolOp(OpCode::MaxPoolGrad, c, xShape), {{&x, xt}, {&g, yt}}, xt),
        runKernel(poolOp(OpCode::AveragePoolGrad, c, xShape), {{&g, yt}}, xt)};
    if (first.empty()) first = got;
    else
      for (size_t k = 0; k < got.size(); ++k) expectSameBits(got[k], first[k], "3 threads against 1");
  }
  simd::setKernelThreads(before);
}

// The SIMD table's pool steps on every instruction set against the scalar loops they
// stand for, at strides 1 to 3 and every [lo, hi) of a 40-column row.
TEST(PoolKernels, TableStepsEqualTheirLoopsOnEveryInstructionSet) {
  std::vector<float> src(200);
  for (size_t i = 0; i < src.size(); ++i) {
    src[i] = static_cast<float>((i * 7) % 11) - 5.0f;
    if (i % 37 == 5) src[i] = NAN;
  }
  const int64_t width = 40;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    SCOPED_TRACE(isa);
    for (int64_t stride = 1; stride <= 3; ++stride)
      for (int64_t lo = 0; lo < width; lo += 3)
        for (int64_t hi = lo; hi <= width; hi += 5) {
          std::vector<float> acc(width), best(width), wantBest(width);
          std::vector<int32_t> at(width, -1), wantAt(width, -1), nan(width, 0), wantNan(width, 0);
          for (int64_t o = 0; o < width; ++o) acc[o] = best[o] = wantBest[o] = static_cast<float>(o % 3) - 1.0f;
          const float* s = src.data() + 1;
          for (bool isMax : {false, true}) {  // one cell over [lo, hi): its loads stop there
            std::vector<float> row(width), wantRow(width, isMax ? -INFINITY : 0.0f);
            t->f32.poolRow(&s, &lo, &hi, 1, stride, width, isMax, row.data());
            for (int64_t o = lo; o < hi; ++o) {
              const float v = s[o * stride];
              wantRow[o] = isMax ? (wantRow[o] == wantRow[o] && (v != v || v > wantRow[o]) ? v : wantRow[o])
                                 : wantRow[o] + v;
            }
            expectSameBits(row, wantRow, isMax ? "poolRow max, one cell" : "poolRow sum, one cell");
          }
          t->f32.poolArgMaxCell(s, 100, lo, hi, stride, best.data(), at.data(), nan.data());
          for (int64_t o = lo; o < hi; ++o) {
            const float v = s[o * stride];
            wantNan[o] |= v != v;
            if (v > wantBest[o]) wantBest[o] = v, wantAt[o] = static_cast<int32_t>(100 + o * stride);
          }
          expectSameBits(best, wantBest, "poolArgMaxCell best");
          EXPECT_EQ(at, wantAt);
          EXPECT_EQ(nan, wantNan);
          std::vector<float> dst(src.begin(), src.end()), wantDst = dst;
          t->f32.poolShareCell(acc.data(), dst.data() + 1, lo, hi, stride);
          for (int64_t o = lo; o < hi; ++o) wantDst[1 + o * stride] += acc[o];
          expectSameBits(dst, wantDst, "poolShareCell");
        }
    // poolRow: three cells of different ranges, max and sum, against the steps.
    for (int64_t stride = 1; stride <= 3; ++stride)
      for (bool isMax : {false, true}) {
        const float* cells[3] = {src.data(), src.data() + 2, src.data() + 5};
        const int64_t lo[3] = {1, 0, 3}, hi[3] = {width, width - 2, 17};
        std::vector<float> out(width), want(width, isMax ? -INFINITY : 0.0f);
        t->f32.poolRow(cells, lo, hi, 3, stride, width, isMax, out.data());
        for (int k = 0; k < 3; ++k)
          for (int64_t o = lo[k]; o < hi[k]; ++o) {
            const float v = cells[k][o * stride];
            want[o] = isMax ? (want[o] == want[o] && (v != v || v > want[o]) ? v : want[o]) : want[o] + v;
          }
        expectSameBits(out, want, isMax ? "poolRow max" : "poolRow sum");
      }
  }
}

}  // namespace
}  // namespace pir::vm
