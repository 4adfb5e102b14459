// The preparers of pad, pad_grad, tile, trilu, hardmax, gather_elements,
// scatter_elements and range over the element functions of vm/kernels_layout.h.
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

struct ElementsState {
  layout::Dims xShape, indexShape;
  int64_t axis = 0;
  ScatterReduction reduction = ScatterReduction::None;
};
template <class T, class I> void runGatherElements(const ElementsState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::gatherElements(ins[0].as<const T>(), s.xShape, ins[1].as<const I>(), s.indexShape, s.axis, outs[0].as<T>());
}
template <class T, class I> void runScatterElements(const ElementsState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  layout::scatterElements(ins[0].as<const T>(), s.xShape, ins[1].as<const I>(), ins[2].as<const T>(), s.indexShape, s.axis,
                          s.reduction, outs[0].as<T>());
}
// Kernel<T, I> for x's element type T and the indices' integer type I.
template <template <class, class> class Kernel>
PreparedKernel elementsKernel(const Op& op, const TensorType& x, const TensorType& indices, const ElementsState& s) {
  if (!isInteger(indices.dtype)) unsupported(op, indices);
  return dispatchDType(x.dtype, [&]<class T>() {
    return dispatchDType(indices.dtype, [&]<class I>() {
      if constexpr (!kIsInt<I>) return unsupported(op, indices), PreparedKernel{};
      else return Kernel<T, I>::make(s);
    });
  });
}
template <class T, class I> struct GatherElementsKernel {
  static PreparedKernel make(const ElementsState& s) { return makeKernel<ElementsState, runGatherElements<T, I>>(s); }
};
template <class T, class I> struct ScatterElementsKernel {
  static PreparedKernel make(const ElementsState& s) { return makeKernel<ElementsState, runScatterElements<T, I>>(s); }
};

struct RangeState {
  double start = 0, delta = 1;
  int64_t n = 0;
};
template <class T> void runRange(const RangeState& s, const TensorRef*, TensorRef* outs, KernelContext&) {
  layout::range(static_cast<T>(s.start), static_cast<T>(s.delta), s.n, outs[0].as<T>());
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

PreparedKernel prepareGatherElements(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  if (in[1].rank() != in[0].rank()) throw KernelError("gather_elements: indices must have the rank of x");
  ElementsState s{dimsOf(in[0]), dimsOf(in[1]), resolveAxis(attrs::GatherElements{op}.axis(), in[0].rank())};
  return elementsKernel<GatherElementsKernel>(op, in[0], in[1], s);
}

PreparedKernel prepareScatterElements(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  if (in[1].rank() != in[0].rank() || in[2].shape != in[1].shape || in[2].dtype != in[0].dtype)
    throw KernelError("scatter_elements needs x, indices of its rank and updates shaped like the indices");
  const attrs::ScatterElements attr{op};
  ElementsState s{dimsOf(in[0]), dimsOf(in[1]), resolveAxis(attr.axis(), in[0].rank()), attr.reduction()};
  return elementsKernel<ScatterElementsKernel>(op, in[0], in[1], s);
}

PreparedKernel prepareRange(const Op& op, InTypes, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  const attrs::Range attr{op};
  RangeState s{attr.start(), attr.delta(), out[0].numElements()};
  return dispatchDType(out[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return unsupported(op, out[0]), PreparedKernel{};
    else return makeKernel<RangeState, runRange<T>>(s);
  });
}

}  // namespace pir::vm::detail
