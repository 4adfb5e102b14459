// resize (ONNX Resize-13, modes nearest, linear and cubic): each output
// coordinate is mapped back to an input coordinate by the coordinate
// transformation mode, then read by its nearest neighbour or interpolated
// (separable: n-linear with one pair of taps per axis, n-cubic with four). The taps depend only on shapes and attributes, so they are
// computed once (planResize) and the forward and the gradient (the transposed
// sum) walk the same plan. Independent of how the op table binds kernels.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace pir::vm::resize {

using Dims = std::vector<int64_t>;

enum class Mode { Nearest, Linear, Cubic };
enum class CoordinateMode { HalfPixel, PytorchHalfPixel, AlignCorners, Asymmetric, TfCropAndResize, TfHalfPixelForNn };
enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

// The ONNX attribute spellings; false for an unknown one.
bool parseCoordinateMode(std::string_view text, CoordinateMode& out);
bool parseNearestMode(std::string_view text, NearestMode& out);

struct Attributes {
  Mode mode = Mode::Nearest;
  CoordinateMode coordinates = CoordinateMode::HalfPixel;
  NearestMode nearest = NearestMode::RoundPreferFloor;
  // Per axis: the scale (output / input, as given or computed from the sizes).
  std::vector<double> scales;
  // tf_crop_and_resize only: the region, starts then ends per axis (normalised).
  std::vector<double> roi;
  double extrapolationValue = 0;
  // cubic only: the kernel's coefficient A, and whether taps outside the input
  // get weight 0 (the others renormalised) instead of reading the edge.
  double cubicCoeffA = -0.75;
  bool excludeOutside = false;
};

// One axis's taps for each output position: read `index[k]` with `weight[k]`
// for k < taps; index -1 reads the extrapolation value.
struct AxisTaps {
  static constexpr int kMaxTaps = 4;
  std::vector<int64_t> index[kMaxTaps];
  std::vector<double> weight[kMaxTaps];
  int taps = 1;  // 1 (nearest, or an axis whose positions map exactly), 2 (linear) or 4 (cubic)
};

struct Plan {
  Dims in, out;
  std::vector<AxisTaps> axes;
  double extrapolationValue = 0;
};

// The input coordinate of output position `o` on one axis (ONNX Resize-13).
double sourceCoordinate(int64_t o, int64_t inLen, int64_t outLen, double scale, CoordinateMode mode, double roiStart,
                        double roiEnd);

Plan planResize(const Dims& in, const Dims& out, const Attributes& attrs);

// out[o] = sum over tap combinations of the product of weights times x at the
// combination (or the extrapolation value where an axis is outside).
template <class T> void resize(const Plan& p, const T* x, T* out);
// dx[i] = sum over outputs of g[o] times the weight with which o read i.
template <class T> void resizeGrad(const Plan& p, const T* g, T* dx);

}  // namespace pir::vm::resize
