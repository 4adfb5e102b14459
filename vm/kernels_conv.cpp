// conv (NCHW input, OIHW weights, 1 to 3 spatial dims, groups, stride,
// dilation, padding [begin..., end...]) and average_pool / max_pool.
//
// conv is im2col + one GEMM per (image, group): the column matrix holds, for each
// output position, the (channel, kernel offset) inputs it sees (0 in the padding).
// Pools: padding cells are ignored (max over real cells; average divides by the
// number of real cells, ONNX count_include_pad = 0). Float conv; pools also on
// integers (average truncates toward zero). f16 computes in f32.
#include <array>

#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

// Spatial geometry, padded to 3 dims with leading size-1 dims.
struct Window {
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1},
      padBegin{0, 0, 0};
  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
  int64_t kernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// The attributes of conv and the pools (a View over both families).
using WindowAttrs = attrs::View<attrs::kernelFamily("Conv") | attrs::kernelFamily("Pool")>;

// Reads a spatial attribute: `count` values, a single value repeated, or the fallback
// (absent or written empty).
template <attrs::Name Key, class Attrs>
std::vector<int64_t> spatialInts(const Attrs& a, size_t count, std::vector<int64_t> fallback) {
  const std::optional<std::vector<int64_t>> written = a.template get<Key>();
  if (!written || written->empty()) return fallback;
  std::vector<int64_t> v = *written;
  if (v.size() == 1 && count > 1) v.assign(count, v[0]);
  if (v.size() != count)
    throw KernelError("attribute '" + std::string(Key.view()) + "' needs " + std::to_string(count) + " values");
  return v;
}

Window planWindow(const Op& op, const TensorType& x, const std::vector<int64_t>& kernel, bool isPool) {
  const size_t spatial = x.shape.size() - 2;
  Window w;
  const WindowAttrs a{op};
  const std::vector<int64_t> stride = spatialInts<"stride">(a, spatial, isPool ? kernel : std::vector<int64_t>(spatial, 1));
  const std::vector<int64_t> dilation =
      isPool ? std::vector<int64_t>(spatial, 1) : spatialInts<"dilation">(a, spatial, std::vector<int64_t>(spatial, 1));
  const std::vector<int64_t> padding = spatialInts<"padding">(a, 2 * spatial, std::vector<int64_t>(2 * spatial, 0));
  const size_t lead = 3 - spatial;
  for (size_t i = 0; i < spatial; ++i) {
    const size_t d = lead + i;
    w.in[d] = x.shape[2 + i];
    w.kernel[d] = kernel[i];
    w.stride[d] = stride[i];
    w.dilation[d] = dilation[i];
    w.padBegin[d] = padding[i];
    if (stride[i] < 1 || dilation[i] < 1 || kernel[i] < 1) throw KernelError("window sizes must be >= 1");
    const int64_t span = w.in[d] + padding[i] + padding[spatial + i] - (dilation[i] * (kernel[i] - 1) + 1);
    if (span < 0) throw KernelError("the window is larger than the padded input " + x.str());
    w.out[d] = span / stride[i] + 1;
  }
  return w;
}

// ---- conv ------------------------------------------------------------------------

struct ConvState {
  Window win;
  int64_t batch = 0, channels = 0, outChannels = 0, groups = 1;
};

template <class T> void runConv(const ConvState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const Window& w = s.win;
  const int64_t cg = s.channels / s.groups, og = s.outChannels / s.groups;
  const int64_t K = cg * w.kernelSize(), P = w.outSize(), inSize = w.inSize();
  const T* x = ins[0].as<const T>();
  const RowMat<C> weights =
      Eigen::Map<const RowMat<T>>(ins[1].as<const T>(), s.outChannels, K).template cast<C>();
  T* y = outs[0].as<T>();
  if (P == 0 || og == 0) return;
  RowMat<C> col(K, P), result(og, P);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t g = 0; g < s.groups; ++g) {
      // im2col
      for (int64_t c = 0; c < cg; ++c) {
        const T* plane = x + (n * s.channels + g * cg + c) * inSize;
        for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
          for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
            for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
              C* row = col.data() + (((c * w.kernel[0] + kd) * w.kernel[1] + kh) * w.kernel[2] + kw) * P;
              for (int64_t od = 0; od < w.out[0]; ++od) {
                const int64_t id = od * w.stride[0] - w.padBegin[0] + kd * w.dilation[0];
                for (int64_t oh = 0; oh < w.out[1]; ++oh) {
                  const int64_t ih = oh * w.stride[1] - w.padBegin[1] + kh * w.dilation[1];
                  for (int64_t ow = 0; ow < w.out[2]; ++ow) {
                    const int64_t iw = ow * w.stride[2] - w.padBegin[2] + kw * w.dilation[2];
                    const bool inside = id >= 0 && id < w.in[0] && ih >= 0 && ih < w.in[1] && iw >= 0 && iw < w.in[2];
                    *row++ = inside ? static_cast<C>(plane[(id * w.in[1] + ih) * w.in[2] + iw]) : C(0);
                  }
                }
              }
            }
      }
      T* out = y + (n * s.outChannels + g * og) * P;
      const C* wg = weights.data() + g * og * K;
      if constexpr (std::is_same_v<C, float>) {
        gemmF32(wg, col.data(), result.data(), og, P, K);
      } else {
        result.noalias() = Eigen::Map<const RowMat<C>>(wg, og, K) * col;
      }
      Eigen::Map<RowMat<T>>(out, og, P) = result.template cast<T>();
    }
}

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

PreparedKernel prepareConv(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 2 || in[0].rank() < 3 || in[0].rank() > 5 || in[1].rank() != in[0].rank() ||
      in[0].dtype != in[1].dtype)
    throw KernelError("conv needs N,C + 1..3 spatial dims input and weights of the same rank and dtype");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  ConvState s;
  s.batch = in[0].shape[0];
  s.channels = in[0].shape[1];
  s.outChannels = in[1].shape[0];
  s.groups = attrs::View<attrs::kernelFamily("Conv")>{op}.groups();
  if (s.groups < 1 || s.channels % s.groups || s.outChannels % s.groups || in[1].shape[1] * s.groups != s.channels)
    throw KernelError("conv: groups must divide the channels and match the weights");
  const std::vector<int64_t> kernel(in[1].shape.begin() + 2, in[1].shape.end());
  s.win = planWindow(op, in[0], kernel, false);
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<ConvState, runConv<T>>(s);
    else return PreparedKernel{};
  });
}

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
