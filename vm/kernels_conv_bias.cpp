// conv's and conv_transpose's kernels with their optional bias: the op's own
// kernel (kernels_conv_gemm.cpp) on x and w, then b[c] added to every element of
// output channel c. `ConvBias(Conv)` wraps conv's, `ConvBias(Transpose)`
// conv_transpose's (conv_grad_input's kernel, the result's shape from `out`).
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

// Which kernel the bias follows.
struct ConvBiasFunctions {
  static constexpr std::string_view family = "ConvBias";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);
  struct Conv {
    static PreparedKernel prepare(const Op& op, InTypes in, InTypes out) { return prepareConv(op, in, out); }
  };
  struct Transpose {
    static PreparedKernel prepare(const Op& op, InTypes in, InTypes out) { return prepareConvGradInput(op, in, out); }
  };
};

template <class Fn> PreparedKernel ConvBiasFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  PreparedKernel conv = Fn::prepare(op, in.first(std::min<size_t>(in.size(), 2)), out);
  if (in.size() < 3) return conv;
  const TensorType& y = out[0];
  if (in[2].dtype != in[0].dtype || in[2].shape != Shape{y.shape[1]})
    throw KernelError(std::string(op.info().name) + ": the bias " + in[2].str() + " needs one value per output channel of " +
                      y.str());
  ConvBiasState s{std::move(conv), y.shape[0], y.shape[1], dimProduct(y.shape, 2, y.shape.size())};
  if (y.numElements() == 0) return nothingToWrite();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<ConvBiasState, runConvBias<T>>(s);
  });
}

}  // namespace

PreparedKernel prepareConvBias(const Op& op, InTypes in, InTypes out) { return prepareBound<ConvBiasFunctions>(op, in, out); }

}  // namespace pir::vm::detail
