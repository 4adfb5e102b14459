#include "vm/kernels_resize.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

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

// Calls f(outFlat, inFlat or -1, weight) for every tap of every output element.
template <class F> void forEachTap(const Plan& p, F&& f) {
  const size_t rank = p.in.size();
  int64_t total = 1;
  for (int64_t v : p.out) total *= v;
  if (total == 0) return;
  std::vector<int64_t> inStride(rank, 1);
  for (size_t d = rank; d-- > 1;) inStride[d - 1] = inStride[d] * p.in[d];
  std::vector<int64_t> o(rank, 0);
  std::vector<int> choice(rank, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    // every combination of one tap per axis
    std::fill(choice.begin(), choice.end(), 0);
    for (;;) {
      double w = 1;
      int64_t off = 0;
      bool outside = false;
      for (size_t d = 0; d < rank; ++d) {
        const AxisTaps& t = p.axes[d];
        const int64_t i = t.index[choice[d]][o[d]];
        w *= t.weight[choice[d]][o[d]];
        if (i < 0) outside = true;
        else off += i * inStride[d];
      }
      if (w != 0) f(flat, outside ? -1 : off, w);
      size_t d = rank;
      while (d-- > 0) {
        if (choice[d] + 1 < p.axes[d].taps) {
          ++choice[d];
          break;
        }
        choice[d] = 0;
      }
      if (d == static_cast<size_t>(-1)) break;
    }
    for (size_t d = rank; d-- > 0;) {
      if (++o[d] < p.out[d]) break;
      o[d] = 0;
    }
  }
}

}  // namespace

template <class T> void resize(const Plan& p, const T* x, T* out) {
  int64_t total = 1;
  for (int64_t v : p.out) total *= v;
  std::vector<double> acc(static_cast<size_t>(total), 0.0);
  forEachTap(p, [&](int64_t o, int64_t i, double w) {
    acc[o] += w * (i < 0 ? p.extrapolationValue : static_cast<double>(x[i]));
  });
  for (int64_t k = 0; k < total; ++k) out[k] = static_cast<T>(acc[k]);
}

template <class T> void resizeGrad(const Plan& p, const T* g, T* dx) {
  int64_t total = 1;
  for (int64_t v : p.in) total *= v;
  std::vector<double> acc(static_cast<size_t>(total), 0.0);
  forEachTap(p, [&](int64_t o, int64_t i, double w) {
    if (i >= 0) acc[i] += w * static_cast<double>(g[o]);
  });
  for (int64_t k = 0; k < total; ++k) dx[k] = static_cast<T>(acc[k]);
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
