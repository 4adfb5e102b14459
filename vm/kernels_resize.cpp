#include "vm/kernels_resize.h"

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <new>

#include "vm/simd_kernels.h"

namespace pir::vm::resize {

bool parseCoordinateMode(std::string_view t, CoordinateMode& out) {
  if (t == "half_pixel") out = CoordinateMode::HalfPixel;
  else if (t == "pytorch_half_pixel") out = CoordinateMode::PytorchHalfPixel;
  else if (t == "align_corners") out = CoordinateMode::AlignCorners;
  else if (t == "asymmetric") out = CoordinateMode::Asymmetric;
  else if (t == "tf_crop_and_resize") out = CoordinateMode::TfCropAndResize;
  else if (t == "tf_half_pixel_for_nn") out = CoordinateMode::TfHalfPixelForNn;
  else return false;
  return true;
}

bool parseNearestMode(std::string_view t, NearestMode& out) {
  if (t == "round_prefer_floor") out = NearestMode::RoundPreferFloor;
  else if (t == "round_prefer_ceil") out = NearestMode::RoundPreferCeil;
  else if (t == "floor") out = NearestMode::Floor;
  else if (t == "ceil") out = NearestMode::Ceil;
  else return false;
  return true;
}

double sourceCoordinate(int64_t o, int64_t inLen, int64_t outLen, double scale, CoordinateMode mode, double roiStart,
                        double roiEnd) {
  const double x = static_cast<double>(o);
  switch (mode) {
    case CoordinateMode::HalfPixel: return (x + 0.5) / scale - 0.5;
    case CoordinateMode::PytorchHalfPixel: return outLen > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
    case CoordinateMode::AlignCorners: {
      // ONNX divides by the resized length as scaled (input * scale, unrounded),
      // which is the output length when the scale is the size ratio.
      const double resized = scale * static_cast<double>(inLen);
      return outLen > 1 && resized > 1 ? x * static_cast<double>(inLen - 1) / (resized - 1) : 0.0;
    }
    case CoordinateMode::Asymmetric: return x / scale;
    case CoordinateMode::TfHalfPixelForNn: return (x + 0.5) / scale;
    case CoordinateMode::TfCropAndResize:
      return outLen > 1 ? roiStart * (inLen - 1) + x * (roiEnd - roiStart) * (inLen - 1) / (outLen - 1)
                        : 0.5 * (roiStart + roiEnd) * (inLen - 1);
  }
  return x;
}

namespace {

int64_t nearestIndex(double c, NearestMode mode) {
  switch (mode) {
    case NearestMode::RoundPreferFloor: return c == std::floor(c) + 0.5 ? static_cast<int64_t>(std::floor(c)) : static_cast<int64_t>(std::round(c));
    case NearestMode::RoundPreferCeil: return static_cast<int64_t>(std::round(c));
    case NearestMode::Floor: return static_cast<int64_t>(std::floor(c));
    case NearestMode::Ceil: return static_cast<int64_t>(std::ceil(c));
  }
  return 0;
}

// The cubic convolution kernel of coefficient A at distance x (Keys).
double cubicWeight(double x, double A) {
  x = std::abs(x);
  if (x <= 1) return ((A + 2) * x - (A + 3)) * x * x + 1;
  if (x < 2) return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  return 0;
}

// The four taps of output position o at input coordinate c: floor(c) - 1 ..
// floor(c) + 2, read at the edge when outside (or weighted 0 and the rest
// renormalised with exclude_outside).
void cubicTaps(double c, int64_t len, const Attributes& a, AxisTaps& t, int64_t o) {
  const double f = std::floor(c);
  const double frac = c - f;
  double sum = 0;
  for (int k = 0; k < 4; ++k) {
    const int64_t i = static_cast<int64_t>(f) - 1 + k;
    double w = cubicWeight(frac + 1 - k, a.cubicCoeffA);
    if (a.excludeOutside && (i < 0 || i >= len)) w = 0;
    t.index[k][o] = std::clamp<int64_t>(i, 0, len - 1);
    t.weight[k][o] = w;
    sum += w;
  }
  if (a.excludeOutside && sum != 0)
    for (int k = 0; k < 4; ++k) t.weight[k][o] /= sum;
  t.taps = 4;
}

}  // namespace

Plan planResize(const Dims& in, const Dims& out, const Attributes& a) {
  Plan p;
  p.in = in;
  p.out = out;
  p.extrapolationValue = a.extrapolationValue;
  const size_t rank = in.size();
  p.axes.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    AxisTaps& t = p.axes[d];
    const int64_t n = out[d], len = in[d];
    const double scale = d < a.scales.size() && a.scales[d] > 0 ? a.scales[d] : static_cast<double>(n) / static_cast<double>(len);
    const double roiStart = a.roi.size() == 2 * rank ? a.roi[d] : 0.0;
    const double roiEnd = a.roi.size() == 2 * rank ? a.roi[rank + d] : 1.0;
    for (auto& v : t.index) v.assign(static_cast<size_t>(n), 0);
    for (auto& v : t.weight) v.assign(static_cast<size_t>(n), 0.0);
    for (int64_t o = 0; o < n; ++o) {
      const double c = sourceCoordinate(o, len, n, scale, a.coordinates, roiStart, roiEnd);
      if (a.coordinates == CoordinateMode::TfCropAndResize && (c < 0 || c > static_cast<double>(len - 1))) {
        t.index[0][o] = -1;  // outside the input: the extrapolation value
        t.weight[0][o] = 1;
        continue;
      }
      if (a.mode == Mode::Nearest) {
        t.index[0][o] = std::clamp<int64_t>(nearestIndex(c, a.nearest), 0, len - 1);
        t.weight[0][o] = 1;
        continue;
      }
      if (a.mode == Mode::Cubic) {
        cubicTaps(c, len, a, t, o);
        continue;
      }
      const double f = std::floor(c);
      const double w = c - f;
      t.index[0][o] = std::clamp<int64_t>(static_cast<int64_t>(f), 0, len - 1);
      t.index[1][o] = std::clamp<int64_t>(static_cast<int64_t>(f) + 1, 0, len - 1);
      t.weight[0][o] = 1 - w;
      t.weight[1][o] = w;
      if (w != 0) t.taps = 2;
    }
  }
  return p;
}

namespace {

// Below about this much work (output elements times taps) a thread's share is not worth a hand-off.
constexpr int64_t kMinWorkPerThread = 8 * 1024;

// The kernels run per block: the trailing sub-tensor from the first axis that the plan
// changes (an axis is unchanged when each output position reads its own input position
// with weight 1). The blocks are independent (the leading axes are copied through),
// so they split over the kernel threads, each block computed the same way on any.
//
// Within a block the resize is separable: one pass per changed axis, the last axis
// first, each a one-dimensional resize of the block as [A, L, B] (A the positions
// before the axis, B after it) to [A, L', B], accumulated in double: dst[a, o, b] = 0 +
// sum over o's taps j in order of w_j (src[a, i_j, b], or the extrapolation value where
// i_j = -1). A tap of weight 0 is skipped, so a non-finite value it would read does not
// reach the result; sums start at +0 and so never produce -0 from a +0 start. Every
// element is rounded to T once, at the end. The gradient runs the transposed passes in
// the opposite order (first changed axis first): src[a, i_j, b] += w_j dst[a, o, b].

// A block's shape and its passes, from the plan.
struct Blocks {
  int64_t count = 1;                   // blocks (the product of the unchanged leading axes)
  size_t first = 0;                    // the first changed axis
  std::vector<size_t> changed;         // the changed axes, ascending
  int64_t inElements = 1, outElements = 1;
  int64_t maxElements = 0;             // the largest intermediate of the passes (either direction)
};

bool unchanged(const Plan& p, size_t d) {
  const AxisTaps& t = p.axes[d];
  if (p.in[d] != p.out[d] || t.taps != 1) return false;
  for (int64_t o = 0; o < p.out[d]; ++o)
    if (t.index[0][static_cast<size_t>(o)] != o || t.weight[0][static_cast<size_t>(o)] != 1.0) return false;
  return true;
}

Blocks blocksOf(const Plan& p) {
  Blocks b;
  const size_t rank = p.in.size();
  for (size_t d = 0; d < rank; ++d)
    if (!unchanged(p, d)) b.changed.push_back(d);
  b.first = b.changed.empty() ? rank : b.changed.front();
  for (size_t d = 0; d < b.first; ++d) b.count *= p.in[d];
  for (size_t d = b.first; d < rank; ++d) b.inElements *= p.in[d], b.outElements *= p.out[d];
  // After the passes of the axes from d on (the last first), axes >= d have their output
  // lengths and the others their input lengths.
  std::vector<int64_t> shape(p.in.begin() + static_cast<std::ptrdiff_t>(b.first), p.in.end());
  b.maxElements = std::max(b.inElements, b.outElements);
  for (size_t k = b.changed.size(); k-- > 0;) {
    shape[b.changed[k] - b.first] = p.out[b.changed[k]];
    int64_t n = 1;
    for (int64_t v : shape) n *= v;
    b.maxElements = std::max(b.maxElements, n);
  }
  return b;
}

// [A, L, B] of axis d within a block whose axes have lengths `shape` (block axes).
struct AxisView {
  int64_t a = 1, l = 1, b = 1;
};
AxisView viewOf(const std::vector<int64_t>& shape, size_t axis) {
  AxisView v;
  for (size_t k = 0; k < axis; ++k) v.a *= shape[k];
  v.l = shape[axis];
  for (size_t k = axis + 1; k < shape.size(); ++k) v.b *= shape[k];
  return v;
}

template <class S> inline double widen(S v) { return static_cast<double>(v); }

// One forward pass: src [A, L, B] -> dst [A, L', B] (L' = the axis's output length).
// The pass along the last axis (B = 1), with the axis's taps a compile-time count.
template <int kTaps, class S>
void forwardLastAxis(const AxisTaps& t, double extrapolation, int64_t rows, int64_t len, int64_t outLen, const S* src,
                     double* dst) {
  const double* weight[kTaps];
  const int64_t* index[kTaps];
  for (int j = 0; j < kTaps; ++j) weight[j] = t.weight[j].data(), index[j] = t.index[j].data();
  for (int64_t a = 0; a < rows; ++a) {
    const S* in = src + a * len;
    double* out = dst + a * outLen;
    for (int64_t o = 0; o < outLen; ++o) {
      double acc = 0.0;
      for (int j = 0; j < kTaps; ++j) {  // branch-free: both selects compile to blends
        const double w = weight[j][o];
        const int64_t i = index[j][o];
        const double x = widen(in[i < 0 ? 0 : i]);
        const double term = w * (i < 0 ? extrapolation : x);
        acc += w != 0 ? term : 0.0;
      }
      out[o] = acc;
    }
  }
}

template <class S>
void forwardPass(const AxisTaps& t, double extrapolation, const AxisView& v, int64_t outLen, const S* src, double* dst) {
  if (v.b == 1) {
    if (t.taps == 1) return forwardLastAxis<1>(t, extrapolation, v.a, v.l, outLen, src, dst);
    if (t.taps == 2) return forwardLastAxis<2>(t, extrapolation, v.a, v.l, outLen, src, dst);
    return forwardLastAxis<AxisTaps::kMaxTaps>(t, extrapolation, v.a, v.l, outLen, src, dst);
  }
  for (int64_t a = 0; a < v.a; ++a) {
    const S* srcA = src + a * v.l * v.b;
    double* dstA = dst + a * outLen * v.b;
    for (int64_t o = 0; o < outLen; ++o) {
      double* row = dstA + o * v.b;
      std::fill(row, row + v.b, 0.0);
      for (int j = 0; j < t.taps; ++j) {
        const double w = t.weight[j][static_cast<size_t>(o)];
        if (w == 0) continue;
        const int64_t i = t.index[j][static_cast<size_t>(o)];
        if (i < 0) {
          const double e = w * extrapolation;
          for (int64_t k = 0; k < v.b; ++k) row[k] += e;
          continue;
        }
        const S* in = srcA + i * v.b;
        for (int64_t k = 0; k < v.b; ++k) row[k] += w * widen(in[k]);
      }
    }
  }
}

// The transposed pass: src [A, L', B] (the gradient of the pass's output) -> dst [A, L, B].
template <class S> void gradientPass(const AxisTaps& t, const AxisView& v, int64_t outLen, const S* src, double* dst) {
  std::fill(dst, dst + v.a * v.l * v.b, 0.0);
  const double* weight[AxisTaps::kMaxTaps];
  const int64_t* index[AxisTaps::kMaxTaps];
  for (int j = 0; j < t.taps; ++j) weight[j] = t.weight[j].data(), index[j] = t.index[j].data();
  for (int64_t a = 0; a < v.a; ++a) {
    const S* srcA = src + a * outLen * v.b;
    double* dstA = dst + a * v.l * v.b;
    if (v.b == 1) {
      for (int64_t o = 0; o < outLen; ++o)
        for (int j = 0; j < t.taps; ++j) {
          const double w = weight[j][o];
          const int64_t i = index[j][o];
          if (w != 0 && i >= 0) dstA[i] += w * widen(srcA[o]);
        }
      continue;
    }
    for (int64_t o = 0; o < outLen; ++o)
      for (int j = 0; j < t.taps; ++j) {
        const double w = weight[j][o];
        const int64_t i = index[j][o];
        if (w == 0 || i < 0) continue;
        double* row = dstA + i * v.b;
        const S* g = srcA + o * v.b;
        for (int64_t k = 0; k < v.b; ++k) row[k] += w * widen(g[k]);
      }
  }
}

template <class T> T narrow(double v) { return static_cast<T>(v); }

// Runs `passes` one-dimensional passes over a block, between two buffers: pass(k, from,
// to) reads the block of the operand (T) at the first pass and the doubles of the one
// before after it; the last pass's doubles are rounded into `out` (`outElements`).
template <class T, class Pass>
void chainPasses(size_t passes, const T* in, T* out, int64_t outElements, double* bufA, double* bufB, Pass&& pass) {
  const double* from = nullptr;  // null: read `in`
  double* to = bufA;
  for (size_t k = 0; k < passes; ++k) {
    if (from) pass(k, from, to);
    else pass(k, in, to);
    from = to;
    to = to == bufA ? bufB : bufA;
  }
  for (int64_t i = 0; i < outElements; ++i) out[i] = narrow<T>(from[i]);
}

// Runs block(k, scratchA, scratchB) for every block k, split over the kernel threads;
// each part allocates its own two buffers of `elements` doubles (the caller charged
// them: resize::scratchElements). A part must not throw: a failed allocation is
// reported after the split.
template <class F> void forEachBlock(const Blocks& b, int64_t workPerBlock, F&& block) {
  std::atomic<bool> failed{false};
  const int64_t minBlocks = std::max<int64_t>(1, kMinWorkPerThread / std::max<int64_t>(1, workPerBlock));
  auto part = [&](int64_t begin, int64_t end) {
    std::unique_ptr<double[]> x(new (std::nothrow) double[static_cast<size_t>(b.maxElements)]);
    std::unique_ptr<double[]> y(new (std::nothrow) double[static_cast<size_t>(b.maxElements)]);
    if (!x || !y) {
      failed.store(true, std::memory_order_relaxed);
      return;
    }
    for (int64_t k = begin; k < end; ++k) block(k, x.get(), y.get());
  };
  if (b.count < 2 * minBlocks || simd::kernelThreads() <= 1) part(0, b.count);
  else simd::parallelFor(b.count, minBlocks, part);
  if (failed.load(std::memory_order_relaxed)) throw std::bad_alloc();
}

// Every output position reads one input position with weight 1 (or lies outside):
// the result is a gather of x, row by row of the last axis, and an output row that
// reads the same input row as the one before it is a copy of that row.
bool gathersOnly(const Plan& p) {
  for (const AxisTaps& t : p.axes) {
    if (t.taps != 1) return false;
    for (double w : t.weight[0])
      if (w != 1.0) return false;
  }
  return true;
}

template <class T> void gather(const Plan& p, const T* x, T* out) {
  const size_t rank = p.in.size();
  if (rank == 0) {
    out[0] = x[0];
    return;
  }
  const int64_t inner = p.out[rank - 1];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= p.out[d];
  std::vector<int64_t> inStride(rank, 1);
  for (size_t d = rank; d-- > 1;) inStride[d - 1] = inStride[d] * p.in[d];
  const std::vector<int64_t>& lastIndex = p.axes[rank - 1].index[0];
  const T extrapolation = static_cast<T>(p.extrapolationValue);
  // The input row of output row r: -1 when an axis of the row lies outside.
  auto inputRow = [&](int64_t r) {
    int64_t off = 0;
    for (size_t d = rank - 1; d-- > 0;) {
      const int64_t i = p.axes[d].index[0][static_cast<size_t>(r % p.out[d])];
      r /= p.out[d];
      if (i < 0) return int64_t{-1};
      off += i * inStride[d];
    }
    return off;
  };
  auto part = [&](int64_t begin, int64_t end) {
    int64_t previous = -2;
    for (int64_t r = begin; r < end; ++r) {
      T* row = out + r * inner;
      const int64_t at = inputRow(r);
      if (at == previous && r > begin) {
        std::copy(row - inner, row, row);
        continue;
      }
      previous = at;
      if (at < 0) {
        std::fill(row, row + inner, extrapolation);
        continue;
      }
      const T* in = x + at;
      for (int64_t o = 0; o < inner; ++o) {
        const int64_t i = lastIndex[static_cast<size_t>(o)];
        row[o] = i < 0 ? extrapolation : in[i];
      }
    }
  };
  const int64_t minRows = std::max<int64_t>(1, kMinWorkPerThread / std::max<int64_t>(1, inner));
  if (rows < 2 * minRows || simd::kernelThreads() <= 1) part(0, rows);
  else simd::parallelFor(rows, minRows, part);
}

}  // namespace

int64_t scratchElements(const Plan& p) {
  if (gathersOnly(p)) return 0;
  const Blocks b = blocksOf(p);
  return b.changed.empty() ? 0 : 2 * b.maxElements * std::max(1, simd::kernelThreads());
}

template <class T> void resize(const Plan& p, const T* x, T* out) {
  if (gathersOnly(p)) return gather(p, x, out);
  const Blocks b = blocksOf(p);
  const std::vector<int64_t> inShape(p.in.begin() + static_cast<std::ptrdiff_t>(b.first), p.in.end());
  forEachBlock(b, b.outElements * 4, [&](int64_t k, double* bufA, double* bufB) {
    std::vector<int64_t> shape = inShape;
    chainPasses(b.changed.size(), x + k * b.inElements, out + k * b.outElements, b.outElements, bufA, bufB,
                [&](size_t step, const auto* from, double* to) {
                  const size_t axisIndex = b.changed[b.changed.size() - 1 - step];  // the last axis first
                  const size_t axis = axisIndex - b.first;
                  const int64_t outLen = p.out[axisIndex];
                  forwardPass(p.axes[axisIndex], p.extrapolationValue, viewOf(shape, axis), outLen, from, to);
                  shape[axis] = outLen;
                });
  });
}

template <class T> void resizeGrad(const Plan& p, const T* g, T* dx) {
  const Blocks b = blocksOf(p);
  if (b.changed.empty()) {
    int64_t total = 1;
    for (int64_t v : p.in) total *= v;
    std::copy(g, g + total, dx);
    return;
  }
  const std::vector<int64_t> outShape(p.out.begin() + static_cast<std::ptrdiff_t>(b.first), p.out.end());
  forEachBlock(b, b.outElements * 4, [&](int64_t k, double* bufA, double* bufB) {
    std::vector<int64_t> shape = outShape;
    chainPasses(b.changed.size(), g + k * b.outElements, dx + k * b.inElements, b.inElements, bufA, bufB,
                [&](size_t step, const auto* from, double* to) {
                  const size_t axisIndex = b.changed[step];  // the first axis first
                  const size_t axis = axisIndex - b.first;
                  const int64_t outLen = shape[axis];
                  shape[axis] = p.in[axisIndex];
                  gradientPass(p.axes[axisIndex], viewOf(shape, axis), outLen, from, to);
                });
  });
}

template void resize<float>(const Plan&, const float*, float*);
template void resize<double>(const Plan&, const double*, double*);
template void resize<Eigen::half>(const Plan&, const Eigen::half*, Eigen::half*);
template void resize<int32_t>(const Plan&, const int32_t*, int32_t*);
template void resize<uint8_t>(const Plan&, const uint8_t*, uint8_t*);
template void resizeGrad<float>(const Plan&, const float*, float*);
template void resizeGrad<double>(const Plan&, const double*, double*);
template void resizeGrad<Eigen::half>(const Plan&, const Eigen::half*, Eigen::half*);

}  // namespace pir::vm::resize
