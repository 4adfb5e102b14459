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

// One kernel cell over an output row: output o reads src[o * stride]. Branch-free;
// restrict keeps the row pointers in registers.
template <class T, class C, bool IsMax>
void poolRowCell(const T* src, int64_t lo, int64_t hi, int64_t stride, C* __restrict acc, int64_t* __restrict count) {
  for (int64_t o = lo; o < hi; ++o) {
    const C v = static_cast<C>(src[o * stride]);
    if constexpr (IsMax) acc[o] = acc[o] == acc[o] && (v != v || v > acc[o]) ? v : acc[o];
    else acc[o] += v;
    ++count[o];
  }
}

// One output row at a time: each kernel cell updates the row's accumulators over the
// columns whose window holds it, so every output still sees its cells in row-major order.
template <class T, bool IsMax> void runPool(const PoolState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = std::conditional_t<kIsFloat<T>, ComputeOf<T>, int64_t>;
  const Window& w = s.win;
  const int64_t inSize = w.inSize(), outSize = w.outSize(), width = w.out[2], stride = w.stride[2];
  // max starts below every value: the first real cell replaces it (or equals it), and
  // a window without real cells gives -inf (integers: the lowest value).
  const C start = IsMax ? (kIsFloat<T> ? C(-INFINITY) : static_cast<C>(std::numeric_limits<T>::lowest())) : C(0);
  if constexpr (IsMax && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    if (isTiled2x2(w))
      return simdTableOf<T>().maxPool2x2(ins[0].as<const T>(), outs[0].as<T>(), s.planes * w.in[0], w.in[1], w.in[2],
                                         w.out[1], w.out[2]);
  }
  const ScratchCharge charge(static_cast<uint64_t>(width), sizeof(C) + sizeof(int64_t));
  std::vector<C> acc(static_cast<size_t>(width));
  std::vector<int64_t> count(static_cast<size_t>(width));
  for (int64_t p = 0; p < s.planes; ++p) {
    const T* plane = ins[0].as<const T>() + p * inSize;
    T* out = outs[0].as<T>() + p * outSize;
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh) {
        std::fill(acc.begin(), acc.end(), start);
        std::fill(count.begin(), count.end(), 0);
        C* a = acc.data();
        int64_t* n = count.data();
        forEachKernelCell(w, od, oh, [=](int64_t row, int64_t lo, int64_t hi, int64_t offset) {
          poolRowCell<T, C, IsMax>(plane + row + offset, lo, hi, stride, a, n);
        });
        for (int64_t o = 0; o < width; ++o) {
          if constexpr (IsMax) {
            *out++ = static_cast<T>(a[o]);
          } else if constexpr (kIsFloat<T>) {
            *out++ = static_cast<T>(n[o] ? a[o] / static_cast<C>(n[o]) : C(NAN));
          } else {
            *out++ = n[o] ? static_cast<T>(a[o] / n[o]) : T(0);
          }
        }
      }
  }
}

// The Pool rows (`Pool(Max)`, `Pool(Average)`): the window's reduction.
struct PoolFunctions {
  static constexpr std::string_view family = "Pool";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);
  struct Max { static constexpr bool kIsMax = true; };
  struct Average { static constexpr bool kIsMax = false; };
};

template <class Fn> PreparedKernel PoolFunctions::prepare(const Op& op, InTypes in, InTypes) {
  if (in.empty() || in[0].rank() < 3 || in[0].rank() > 5) throw KernelError("pool needs N,C + 1..3 spatial dims");
  if (in[0].dtype == DType::Bool) unsupported(op, in[0]);
  PoolState s;
  s.win = planWindow(op, in[0], nullptr);
  s.planes = in[0].shape[0] * in[0].shape[1];
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return PreparedKernel{};
    else return makeKernel<PoolState, runPool<T, Fn::kIsMax>>(s);
  });
}

}  // namespace

PreparedKernel preparePool(const Op& op, InTypes in, InTypes out) { return prepareBound<PoolFunctions>(op, in, out); }

}  // namespace pir::vm::detail
