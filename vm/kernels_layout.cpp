// The preparers of pad, pad_grad, tile, trilu and hardmax over the element
// functions of vm/kernels_layout.h.
#include "vm/kernels_layout.h"

#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

layout::Dims dimsOf(const TensorType& t) { return layout::Dims(t.shape.begin(), t.shape.end()); }

struct PadState {
  layout::Dims xShape, begin, end;
  PadMode mode = PadMode::Constant;
  double value = 0;
};

template <class T> void runPad(const PadState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::pad(ins[0].as<const T>(), s.xShape, s.begin, s.end, s.mode, static_cast<T>(s.value), outs[0].as<T>());
}
template <class T> void runPadGrad(const PadState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::padGrad(ins[0].as<const T>(), s.xShape, s.begin, s.end, s.mode, outs[0].as<T>());
}

// pads [b0.., e0..] split for an operand of `rank` axes (checked by the inference).
PadState padState(const std::vector<int64_t>& pads, size_t rank, PadMode mode, double value) {
  if (pads.size() != 2 * rank) throw KernelError("pad: pads needs the begin and the end of every axis");
  PadState s;
  s.begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(rank));
  s.end.assign(pads.begin() + static_cast<std::ptrdiff_t>(rank), pads.end());
  s.mode = mode;
  s.value = value;
  return s;
}

struct TileState {
  layout::Dims xShape, repeats;
};
template <class T> void runTile(const TileState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::tile(ins[0].as<const T>(), s.xShape, s.repeats, outs[0].as<T>());
}

struct TriluState {
  layout::Dims shape;
  bool upper = true;
  int64_t k = 0;
};
template <class T> void runTrilu(const TriluState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::trilu(ins[0].as<const T>(), s.shape, s.upper, s.k, outs[0].as<T>());
}

struct HardmaxState {
  layout::Dims shape;
  int64_t axis = 0;
};
template <class T> void runHardmax(const HardmaxState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::hardmax(ins[0].as<const T>(), s.shape, s.axis, outs[0].as<T>());
}

}  // namespace

PreparedKernel preparePad(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  const attrs::View<attrs::kernelFamily("Pad")> attr{op};
  PadState s = padState(attr.pads(), in[0].shape.size(), attr.mode(), attr.value());
  s.xShape = dimsOf(in[0]);
  return dispatchDType(in[0].dtype, [&]<class T>() { return makeKernel<PadState, runPad<T>>(s); });
}

PreparedKernel preparePadGrad(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  const attrs::View<attrs::kernelFamily("PadGrad")> attr{op};
  PadState s = padState(attr.pads(), in[0].shape.size(), attr.mode(), 0);
  s.xShape = dimsOf(out[0]);
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<PadState, runPadGrad<T>>(s);
  });
}

PreparedKernel prepareTile(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  TileState s{dimsOf(in[0]), attrs::View<attrs::kernelFamily("Tile")>{op}.repeats()};
  return dispatchDType(in[0].dtype, [&]<class T>() { return makeKernel<TileState, runTile<T>>(s); });
}

PreparedKernel prepareTrilu(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  const attrs::View<attrs::kernelFamily("Trilu")> attr{op};
  TriluState s{dimsOf(in[0]), attr.upper(), attr.k()};
  return dispatchDType(in[0].dtype, [&]<class T>() { return makeKernel<TriluState, runTrilu<T>>(s); });
}

PreparedKernel prepareHardmax(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  HardmaxState s{dimsOf(in[0]), resolveAxis(attrs::View<attrs::kernelFamily("Hardmax")>{op}.axis(), in[0].rank())};
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<HardmaxState, runHardmax<T>>(s);
  });
}

}  // namespace pir::vm::detail
