// average_pool / max_pool (NCHW, 1 to 3 spatial dims, stride, padding
// [begin..., end...]); conv and the gradient kernels are in kernels_conv_gemm.cpp.
// Pools: padding cells are ignored (max over real cells; average divides by the
// number of real cells, ONNX count_include_pad = 0). Float conv; pools also on
// integers (average truncates toward zero). f16 computes in f32.
#include "vm/conv_window.h"

namespace pir::vm::detail {
namespace {

// ---- pools -------------------------------------------------------------------------

struct PoolState {
  Window win;
  int64_t planes = 0;  // N * C
};

template <class T, bool IsMax> void runPool(const PoolState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = std::conditional_t<kIsFloat<T>, ComputeOf<T>, int64_t>;
  const Window& w = s.win;
  const int64_t inSize = w.inSize(), outSize = w.outSize();
  for (int64_t p = 0; p < s.planes; ++p) {
    const T* plane = ins[0].as<const T>() + p * inSize;
    T* out = outs[0].as<T>() + p * outSize;
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh)
        for (int64_t ow = 0; ow < w.out[2]; ++ow) {
          const int64_t d0 = od * w.stride[0] - w.padBegin[0], h0 = oh * w.stride[1] - w.padBegin[1],
                        w0 = ow * w.stride[2] - w.padBegin[2];
          C acc = 0;
          int64_t count = 0;
          for (int64_t id = std::max<int64_t>(d0, 0); id < std::min(d0 + w.kernel[0], w.in[0]); ++id)
            for (int64_t ih = std::max<int64_t>(h0, 0); ih < std::min(h0 + w.kernel[1], w.in[1]); ++ih)
              for (int64_t iw = std::max<int64_t>(w0, 0); iw < std::min(w0 + w.kernel[2], w.in[2]); ++iw) {
                const C v = static_cast<C>(plane[(id * w.in[1] + ih) * w.in[2] + iw]);
                if constexpr (IsMax) acc = (count == 0 || v != v || v > acc) && acc == acc ? v : acc;
                else acc += v;
                ++count;
              }
          if constexpr (IsMax) {
            *out++ = count ? static_cast<T>(acc) : (kIsFloat<T> ? T(-INFINITY) : std::numeric_limits<T>::lowest());
          } else if constexpr (kIsFloat<T>) {
            *out++ = static_cast<T>(count ? acc / static_cast<C>(count) : C(NAN));
          } else {
            *out++ = count ? static_cast<T>(acc / count) : T(0);
          }
        }
  }
}

}  // namespace

PreparedKernel preparePool(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || in[0].rank() < 3 || in[0].rank() > 5) throw KernelError("pool needs N,C + 1..3 spatial dims");
  if (in[0].dtype == DType::Bool) unsupported(op, in[0]);
  const size_t spatial = in[0].shape.size() - 2;
  PoolState s;
  const std::vector<int64_t> kernel = spatialInts<"kernel">(attrs::View<attrs::kernelFamily("Pool")>{op}, spatial, {});
  if (kernel.size() != spatial) throw KernelError("pool: 'kernel' needs one value per spatial axis");
  s.win = planWindow(op, in[0], kernel, true);
  s.planes = in[0].shape[0] * in[0].shape[1];
  const bool isMax = op.code == OpCode::MaxPool;
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return PreparedKernel{};
    else return isMax ? makeKernel<PoolState, runPool<T, true>>(s) : makeKernel<PoolState, runPool<T, false>>(s);
  });
}

}  // namespace pir::vm::detail
