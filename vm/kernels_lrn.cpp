// The preparers of lrn and lrn_grad over vm/kernels_lrn.h.
#include "vm/kernels_lrn.h"

#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

struct LrnState {
  std::vector<int64_t> shape;
  lrn::Attributes attrs;
};

LrnState lrnState(const Op& op, const TensorType& x) {
  const attrs::View<attrs::kernelFamily("Lrn") | attrs::kernelFamily("LrnGrad")> a{op};
  LrnState s{std::vector<int64_t>(x.shape.begin(), x.shape.end()), {}};
  s.attrs.alpha = a.alpha();
  s.attrs.beta = a.beta();
  s.attrs.bias = a.bias();
  s.attrs.size = a.size();
  return s;
}

// The kernels keep a block of columns of every channel in doubles.
uint64_t columnBytes(const TensorType& x) {
  const lrn::Layout l(std::vector<int64_t>(x.shape.begin(), x.shape.end()));
  return static_cast<uint64_t>(lrn::scratchDoubles(l)) * sizeof(double);
}

template <class T> void runLrn(const LrnState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const ScratchCharge charge(columnBytes(*ins[0].type));
  if constexpr (kIsHalf<T>) {
    const int64_t n = ins[0].type->numElements();
    const ScratchCharge copies(static_cast<uint64_t>(n), 2 * sizeof(float));
    std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(ins[0].as<const T>()[i]);
    lrn::lrn(x.data(), s.shape, s.attrs, y.data());
    for (int64_t i = 0; i < n; ++i) outs[0].as<T>()[i] = T(y[i]);
  } else {
    lrn::lrn(ins[0].as<const T>(), s.shape, s.attrs, outs[0].as<T>());
  }
}
template <class T> void runLrnGrad(const LrnState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const ScratchCharge charge(columnBytes(*ins[0].type));
  if constexpr (kIsHalf<T>) {
    const int64_t n = ins[0].type->numElements();
    const ScratchCharge copies(static_cast<uint64_t>(n), 3 * sizeof(float));
    std::vector<float> x(static_cast<size_t>(n)), g(static_cast<size_t>(n)), dx(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(ins[0].as<const T>()[i]), g[i] = static_cast<float>(ins[1].as<const T>()[i]);
    lrn::lrnGrad(x.data(), g.data(), s.shape, s.attrs, dx.data());
    for (int64_t i = 0; i < n; ++i) outs[0].as<T>()[i] = T(dx[i]);
  } else {
    lrn::lrnGrad(ins[0].as<const T>(), ins[1].as<const T>(), s.shape, s.attrs, outs[0].as<T>());
  }
}

}  // namespace

PreparedKernel prepareLrn(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<LrnState, runLrn<T>>(lrnState(op, in[0]));
  });
}

PreparedKernel prepareLrnGrad(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  if (in[1].dtype != in[0].dtype || in[1].shape != in[0].shape) throw KernelError("lrn_grad needs x and g of one type");
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<LrnState, runLrnGrad<T>>(lrnState(op, in[0]));
  });
}

}  // namespace pir::vm::detail
