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

// The doubles resize and resizeGrad allocate for their passes (0 for a plan that
// only gathers), for the caller to charge against the memory budget first.
int64_t scratchElements(const Plan& p);

// out[o] = the sum, over every combination of one tap per axis (axis 0 slowest), of
// the product of the taps' weights times x there (the extrapolation value where an
// axis lies outside); combinations of weight 0 add nothing. Computed in double as one
// pass per axis the plan changes, the last axis first, and rounded to T once; a plan
// whose every tap has weight 1 copies (a nearest resize is a gather). Splits over the
// kernel threads by the leading unchanged axes: the same bits on any thread count.
template <class T> void resize(const Plan& p, const T* x, T* out);
// dx[i] = sum over outputs of g[o] times the weight with which o read i: the passes
// transposed, in the opposite order, in double, rounded once.
template <class T> void resizeGrad(const Plan& p, const T* g, T* dx);

}  // namespace pir::vm::resize
