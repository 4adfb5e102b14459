// average_pool / max_pool (NCHW, 1 to 3 spatial dims, stride, padding
// [begin..., end...]); conv and the gradient kernels are in kernels_conv_gemm.cpp.
// Pools: padding cells are ignored (max over real cells; average divides by the
// number of real cells, or with count_include_pad by the cells inside the padded
// input); ceil_mode and dilation come in the window (conv_window.h). Float conv;
// pools also on integers (average truncates toward zero). f16 computes in f32.
#include "vm/conv_window.h"

namespace pir::vm::detail {
namespace {

// ---- pools -------------------------------------------------------------------------

struct PoolState {
  Window win;
  int64_t planes = 0;  // N * C
  bool countIncludePad = false;
  bool columnMajor = false;  // max_pool_with_indices: indices walk the spatial axes first-fastest
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
    if (isTiled2x2(w)) {  // planes are independent: a run of them per kernel thread
      const int64_t planeIn = w.in[1] * w.in[2], planeOut = w.out[1] * w.out[2];
      splitRows(s.planes * w.in[0], planeIn, [&](int64_t first, int64_t end) {
        simd::tableOf<T>().maxPool2x2(ins[0].as<const T>() + first * planeIn, outs[0].as<T>() + first * planeOut,
                                      end - first, w.in[1], w.in[2], w.out[1], w.out[2]);
      });
      return;
    }
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
        if (!IsMax && s.countIncludePad) {
          const int64_t rows = w.cellsInsidePadding[0][static_cast<size_t>(od)] *
                               w.cellsInsidePadding[1][static_cast<size_t>(oh)];
          for (int64_t o = 0; o < width; ++o) n[o] = rows * w.cellsInsidePadding[2][static_cast<size_t>(o)];
        }
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

// One kernel cell over an output row for max with indices: output o reads
// src[o * stride], the cell base + o * stride of its plane. A cell takes the
// output when it is the first real one, the first NaN, or greater than the best
// so far (as runPool's max: the first NaN wins, else the first maximum).
template <class T, class C>
void argMaxRowCell(const T* src, int64_t base, int64_t lo, int64_t hi, int64_t stride, C* __restrict best,
                   int64_t* __restrict at) {
  for (int64_t o = lo; o < hi; ++o) {
    const C v = static_cast<C>(src[o * stride]);
    if (at[o] < 0 || (best[o] == best[o] && (v != v || v > best[o]))) {
      best[o] = v;
      at[o] = base + o * stride;
    }
  }
}

// outs: y, indices (i32, the flat index into x: the plane's offset plus the cell's
// index in the plane, row-major or column-major; -1 for a window without real
// cells, whose y is -inf or the lowest integer as max_pool's).
template <class T> void runMaxPoolWithIndices(const PoolState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = std::conditional_t<kIsFloat<T>, ComputeOf<T>, int64_t>;
  const Window& w = s.win;
  const int64_t inSize = w.inSize(), outSize = w.outSize(), width = w.out[2], stride = w.stride[2];
  const C start = kIsFloat<T> ? C(-INFINITY) : static_cast<C>(std::numeric_limits<T>::lowest());
  const ScratchCharge charge(static_cast<uint64_t>(width), sizeof(C) + sizeof(int64_t));
  std::vector<C> best(static_cast<size_t>(width));
  std::vector<int64_t> at(static_cast<size_t>(width));
  for (int64_t p = 0; p < s.planes; ++p) {
    const T* plane = ins[0].as<const T>() + p * inSize;
    T* out = outs[0].as<T>() + p * outSize;
    int32_t* index = outs[1].as<int32_t>() + p * outSize;
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh) {
        std::fill(best.begin(), best.end(), start);
        std::fill(at.begin(), at.end(), -1);
        C* b = best.data();
        int64_t* a = at.data();
        forEachKernelCell(w, od, oh, [=](int64_t row, int64_t lo, int64_t hi, int64_t offset) {
          argMaxRowCell<T, C>(plane + row + offset, row + offset, lo, hi, stride, b, a);
        });
        for (int64_t o = 0; o < width; ++o) {
          *out++ = static_cast<T>(b[o]);
          int64_t cell = a[o];
          if (s.columnMajor && cell >= 0) {  // (d, h, w) row-major -> w * H * D + h * D + d
            const int64_t iw = cell % w.in[2], ih = cell / w.in[2] % w.in[1], id = cell / (w.in[2] * w.in[1]);
            cell = (iw * w.in[1] + ih) * w.in[0] + id;
          }
          // Inference checked that every flat index of x fits in i32.
          *index++ = static_cast<int32_t>(cell < 0 ? -1 : p * inSize + cell);
        }
      }
  }
}

// The Pool rows (`Pool(Max)`, `Pool(Average)`, `Pool(MaxWithIndices)`): the window's reduction.
struct PoolFunctions {
  static constexpr std::string_view family = "Pool";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);
  struct Max {
    template <class T> static constexpr auto run = runPool<T, true>;
  };
  struct Average {
    template <class T> static constexpr auto run = runPool<T, false>;
  };
  struct MaxWithIndices {
    template <class T> static constexpr auto run = runMaxPoolWithIndices<T>;
  };
};

template <class Fn> PreparedKernel PoolFunctions::prepare(const Op& op, InTypes in, InTypes) {
  if (in.empty() || in[0].rank() < 3 || in[0].rank() > 5) throw KernelError("pool needs N,C + 1..3 spatial dims");
  if (in[0].dtype == DType::Bool) unsupported(op, in[0]);
  PoolState s;
  s.win = planWindow(op, in[0], nullptr);
  s.planes = in[0].shape[0] * in[0].shape[1];
  const attrs::View<attrs::kernelFamily("Pool")> a{op};
  s.countIncludePad = a.count_include_pad().value_or(false);
  s.columnMajor = a.storage_order() == StorageOrder::ColumnMajor;
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return PreparedKernel{};
    else return makeKernel<PoolState, Fn::template run<T>>(s);
  });
}

}  // namespace

PreparedKernel preparePool(const Op& op, InTypes in, InTypes out) { return prepareBound<PoolFunctions>(op, in, out); }

}  // namespace pir::vm::detail
