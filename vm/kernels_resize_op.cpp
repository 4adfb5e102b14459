// The preparers of resize and resize_grad over vm/kernels_resize.h: the taps are
// planned once per prepared kernel (they depend on shapes and attributes only).
#include "vm/kernel_util.h"
#include "vm/kernels_resize.h"

namespace pir::vm::detail {
namespace {

resize::Mode modeOf(ResizeMode m) {
  switch (m) {
    case ResizeMode::Nearest: return resize::Mode::Nearest;
    case ResizeMode::Linear: return resize::Mode::Linear;
    case ResizeMode::Cubic: return resize::Mode::Cubic;
  }
  return resize::Mode::Nearest;
}

resize::CoordinateMode coordinatesOf(ResizeCoordinates c) {
  switch (c) {
    case ResizeCoordinates::HalfPixel: return resize::CoordinateMode::HalfPixel;
    case ResizeCoordinates::PytorchHalfPixel: return resize::CoordinateMode::PytorchHalfPixel;
    case ResizeCoordinates::AlignCorners: return resize::CoordinateMode::AlignCorners;
    case ResizeCoordinates::Asymmetric: return resize::CoordinateMode::Asymmetric;
    case ResizeCoordinates::TfCropAndResize: return resize::CoordinateMode::TfCropAndResize;
    case ResizeCoordinates::TfHalfPixelForNn: return resize::CoordinateMode::TfHalfPixelForNn;
  }
  return resize::CoordinateMode::HalfPixel;
}

resize::NearestMode nearestOf(ResizeNearest n) {
  switch (n) {
    case ResizeNearest::RoundPreferFloor: return resize::NearestMode::RoundPreferFloor;
    case ResizeNearest::RoundPreferCeil: return resize::NearestMode::RoundPreferCeil;
    case ResizeNearest::Floor: return resize::NearestMode::Floor;
    case ResizeNearest::Ceil: return resize::NearestMode::Ceil;
  }
  return resize::NearestMode::RoundPreferFloor;
}

// The plan from `in` (x's shape) to `out` (resize's result shape).
resize::Plan planOf(const Op& op, const Shape& in, const Shape& out) {
  const attrs::View<attrs::kernelFamily("Resize") | attrs::kernelFamily("ResizeGrad")> a{op};
  resize::Attributes r;
  r.mode = modeOf(a.mode());
  r.coordinates = coordinatesOf(a.coordinate_transformation_mode());
  r.nearest = nearestOf(a.nearest_mode());
  r.scales = a.scales().value_or(std::vector<double>{});
  r.roi = a.roi().value_or(std::vector<double>{});
  r.extrapolationValue = a.extrapolation_value();
  r.cubicCoeffA = a.cubic_coeff_a();
  r.excludeOutside = a.exclude_outside();
  // The plan holds four taps per output position and axis.
  uint64_t positions = 0;
  for (int64_t d : out) positions += static_cast<uint64_t>(d);
  const ScratchCharge charge(positions, 4 * (sizeof(double) + sizeof(int64_t)));
  return resize::planResize(resize::Dims(in.begin(), in.end()), resize::Dims(out.begin(), out.end()), r);
}

// The element types vm/kernels_resize.cpp instantiates.
template <class T> inline constexpr bool kResizable =
    std::is_same_v<T, float> || std::is_same_v<T, double> || kIsHalf<T> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, uint8_t>;

template <class T> void runResize(const resize::Plan& p, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const ScratchCharge charge(static_cast<uint64_t>(resize::scratchElements(p)), sizeof(double));
  resize::resize(p, ins[0].as<const T>(), outs[0].as<T>());
}
template <class T> void runResizeGrad(const resize::Plan& p, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const ScratchCharge charge(static_cast<uint64_t>(resize::scratchElements(p)), sizeof(double));
  resize::resizeGrad(p, ins[0].as<const T>(), outs[0].as<T>());
}

// resize_grad of an empty g: x's gradient is zero (no plan over g's axes, which
// may be huge though empty).
template <class T> void runZeros(const int64_t& n, const TensorRef*, TensorRef* outs, KernelContext&) {
  std::fill(outs[0].as<T>(), outs[0].as<T>() + n, T(0));
}

}  // namespace

PreparedKernel prepareResize(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kResizable<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<resize::Plan, runResize<T>>(planOf(op, in[0].shape, out[0].shape));
  });
}

PreparedKernel prepareResizeGrad(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else if (in[0].numElements() == 0) return makeKernel<int64_t, runZeros<T>>(out[0].numElements());
    else return makeKernel<resize::Plan, runResizeGrad<T>>(planOf(op, out[0].shape, in[0].shape));
  });
}

}  // namespace pir::vm::detail
