// conv's kernel with its optional bias: conv's own kernel (kernels_conv_gemm.cpp)
// on x and w, then b[c] added to every element of output channel c.
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

struct ConvBiasState {
  PreparedKernel conv;
  int64_t batch = 0, channels = 0, inner = 0;  // the result viewed as [N, C, inner]
};

template <class T> void runConvBias(const ConvBiasState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  s.conv(ins, outs, ctx);
  const T* b = ins[2].as<const T>();
  T* y = outs[0].as<T>();
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t c = 0; c < s.channels; ++c) {
      T* row = y + (n * s.channels + c) * s.inner;
      const ComputeOf<T> add = static_cast<ComputeOf<T>>(b[c]);
      for (int64_t i = 0; i < s.inner; ++i) row[i] = static_cast<T>(static_cast<ComputeOf<T>>(row[i]) + add);
    }
}

}  // namespace

PreparedKernel prepareConvBias(const Op& op, InTypes in, InTypes out) {
  PreparedKernel conv = prepareConv(op, in.first(std::min<size_t>(in.size(), 2)), out);
  if (in.size() < 3) return conv;
  const TensorType& y = out[0];
  if (in[2].dtype != in[0].dtype || in[2].shape != Shape{y.shape[1]})
    throw KernelError("conv: the bias " + in[2].str() + " needs one value per output channel of " + y.str());
  ConvBiasState s{std::move(conv), y.shape[0], y.shape[1], dimProduct(y.shape, 2, y.shape.size())};
  if (y.numElements() == 0) return nothingToWrite();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<ConvBiasState, runConvBias<T>>(s);
  });
}

}  // namespace pir::vm::detail
