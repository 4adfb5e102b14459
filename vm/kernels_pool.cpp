// average_pool, max_pool, max_pool_with_indices and the gradients of the first two
// (NCHW, 1 to 3 spatial dims, stride, padding [begin..., end...]); conv and its
// gradients are in kernels_conv_gemm.cpp and kernels_conv_direct.cpp. Padding cells
// are ignored (max over real cells; average divides by the number of real cells, or
// with count_include_pad by the cells inside the padded input); ceil_mode and
// dilation come in the window (conv_window.h). Pools also on integers (average
// truncates toward zero); f16 computes in f32.
//
// Every kernel walks output rows (a plane's od, oh) and, per row, the window's cells in
// row-major order, each cell over the row's columns at once (forEachKernelCell): an
// output sees its cells in row-major order and a gradient cell takes its shares in
// (output row, cell, column) order. Those orders follow the shapes alone; the kernel
// threads take whole output rows (the forward pools) or whole planes (the gradients,
// whose windows overlap within a plane), so the bits do not depend on the thread count.
// f32 and f64 walk a row's cells through the SIMD table (vm/simd_kernels.h), whose
// loops are vector loops with strides 1 and 2 compiled in; the other dtypes (integers,
// f16 read as f32) take the plain loops here.
#include "vm/conv_window.h"

namespace pir::vm::detail {
namespace {

struct PoolState {
  Window win;
  int64_t planes = 0;  // N * C
  bool countIncludePad = false;
  bool columnMajor = false;  // max_pool_with_indices: indices walk the spatial axes first-fastest
};

// Output row r of a pool over `w`: its plane and its (od, oh).
struct OutputRow {
  int64_t plane, od, oh;
};
OutputRow outputRow(const Window& w, int64_t r) {
  const int64_t perPlane = w.out[0] * w.out[1];
  return {r / perPlane, r % perPlane / w.out[1], r % w.out[1]};
}

// The divisors of average_pool's windows along one output row: column o's window has
// rows * along[o] cells, real ones (or with count_include_pad those inside the padded
// input), rows the cells of the other axes, cells[0][od] * cells[1][oh]. `rows` takes
// a few values over a pool (the edges' and the interior's), so a row of divisors is
// computed again only when it changes. `data` holds out[2] elements.
template <class C> class RowDivisors {
 public:
  RowDivisors(const Window& w, bool countIncludePad, C* data)
      : cells_(countIncludePad ? w.cellsInsidePadding : w.realCells), width_(w.out[2]), data_(data) {}
  const C* of(int64_t od, int64_t oh) {
    const int64_t rows = cells_[0][static_cast<size_t>(od)] * cells_[1][static_cast<size_t>(oh)];
    if (rows != rows_) {
      rows_ = rows;
      for (int64_t o = 0; o < width_; ++o) data_[o] = static_cast<C>(rows * cells_[2][static_cast<size_t>(o)]);
    }
    return data_;
  }

 private:
  const std::array<std::vector<int64_t>, 3>& cells_;
  int64_t width_;
  C* data_;
  int64_t rows_ = -1;
};

// ---- forward ---------------------------------------------------------------------

// One kernel cell over an output row: output o in [lo, hi) reads src[o * stride].
// max: the first NaN sticks, else a greater value takes the output.
template <class T, class C, bool IsMax>
void poolCell(const T* __restrict src, int64_t lo, int64_t hi, int64_t stride, C* __restrict acc) {
  for (int64_t o = lo; o < hi; ++o) {
    const C v = static_cast<C>(src[o * stride]);
    if constexpr (IsMax) acc[o] = acc[o] == acc[o] && (v != v || v > acc[o]) ? v : acc[o];
    else acc[o] += v;
  }
}

// f32 and f64 take the cell steps of the SIMD table (vm/simd_kernels.h), the same
// operations as poolCell in the widest vectors.
template <class T> constexpr bool kSimdFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class T> using PoolAccumulator = std::conditional_t<kIsFloat<T>, ComputeOf<T>, int64_t>;

// A part's scratch for poolRows: out[2] accumulators (unless they are the output row
// itself, f32 and f64) and divisors, and the kernel cells of one output row.
template <class C> struct PoolRowScratch {
  C* acc;
  C* divisors;
  const C** cells;
  int64_t* lo;
  int64_t* hi;
};

// Output rows [r0, r1) of the pool.
template <class T, bool IsMax>
void poolRows(const PoolState& s, const T* x, T* y, int64_t r0, int64_t r1, const PoolRowScratch<PoolAccumulator<T>>& own) {
  using C = PoolAccumulator<T>;
  const Window& w = s.win;
  const int64_t inSize = w.inSize(), width = w.out[2], stride = w.stride[2];
  // max starts below every value: the first real cell replaces it (or equals it), and
  // a window without real cells gives -inf (integers: the lowest value).
  const C start = IsMax ? (kIsFloat<T> ? C(-INFINITY) : static_cast<C>(std::numeric_limits<T>::lowest())) : C(0);
  RowDivisors<C> divisorsOf(w, s.countIncludePad, own.divisors);
  for (int64_t r = r0; r < r1; ++r) {
    const OutputRow at = outputRow(w, r);
    const T* plane = x + at.plane * inSize;
    T* out = y + r * width;
    C* a;
    if constexpr (kSimdFloat<T>) {
      a = out;
      int64_t count = 0;
      forEachKernelCell(w, at.od, at.oh, [&](int64_t row, int64_t lo, int64_t hi, int64_t offset) {
        own.cells[count] = plane + row + offset;
        own.lo[count] = lo;
        own.hi[count++] = hi;
      });
      simd::tableOf<T>().poolRow(own.cells, own.lo, own.hi, count, stride, width, IsMax, a);
    } else {
      a = own.acc;
      std::fill(a, a + width, start);
      forEachKernelCell(w, at.od, at.oh, [&](int64_t row, int64_t lo, int64_t hi, int64_t offset) {
        poolCell<T, C, IsMax>(plane + row + offset, lo, hi, stride, a);
      });
    }
    if constexpr (IsMax) {
      if constexpr (!kSimdFloat<T>)
        for (int64_t o = 0; o < width; ++o) out[o] = static_cast<T>(a[o]);
    } else if constexpr (kSimdFloat<T>) {
      // A window without real cells divides its +0 by 0: NaN, as for any float.
      simd::tableOf<T>().binary[simd::kDiv][simd::kVecVec](a, divisorsOf.of(at.od, at.oh), out, width);
    } else if constexpr (kIsFloat<T>) {
      const C* n = divisorsOf.of(at.od, at.oh);
      for (int64_t o = 0; o < width; ++o) out[o] = static_cast<T>(a[o] / n[o]);
    } else {
      const C* n = divisorsOf.of(at.od, at.oh);
      for (int64_t o = 0; o < width; ++o) out[o] = n[o] ? static_cast<T>(a[o] / n[o]) : T(0);
    }
  }
}

template <class T, bool IsMax> void runPool(const PoolState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = PoolAccumulator<T>;
  const Window& w = s.win;
  if constexpr (IsMax && kSimdFloat<T>) {
    if (isTiled2x2(w)) {  // planes are independent: a run of them per kernel thread
      const int64_t planeIn = w.in[1] * w.in[2], planeOut = w.out[1] * w.out[2];
      splitRows(s.planes * w.in[0], planeIn, [&](int64_t first, int64_t end) {
        simd::tableOf<T>().maxPool2x2(ins[0].as<const T>() + first * planeIn, outs[0].as<T>() + first * planeOut,
                                      end - first, w.in[1], w.in[2], w.out[1], w.out[2]);
      });
      return;
    }
  }
  const int64_t rows = s.planes * w.out[0] * w.out[1], width = w.out[2];
  const int64_t parts = rowParts(rows, width * w.kernelSize());
  const int64_t cells = w.kernelSize();
  const ScratchCharge charge(static_cast<uint64_t>(parts) * static_cast<uint64_t>(2 * width + 3 * cells), sizeof(C) + 8);
  std::vector<C> values(static_cast<size_t>(2 * width * parts));
  std::vector<const C*> cellPointers(static_cast<size_t>(cells * parts));
  std::vector<int64_t> ranges(static_cast<size_t>(2 * cells * parts));
  splitRowsInParts(rows, parts, [&](int64_t part, int64_t r0, int64_t r1) {
    const PoolRowScratch<C> own{values.data() + 2 * part * width, values.data() + (2 * part + 1) * width,
                                cellPointers.data() + part * cells, ranges.data() + 2 * part * cells,
                                ranges.data() + (2 * part + 1) * cells};
    poolRows<T, IsMax>(s, ins[0].as<const T>(), outs[0].as<T>(), r0, r1, own);
  });
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
  using C = PoolAccumulator<T>;
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

// ---- gradients -------------------------------------------------------------------

struct PoolGradState {
  Window win;
  int64_t planes = 0;  // N * C
  bool countIncludePad = false;  // average_pool_grad: the divisor counts the padding cells
};

// plane(d, p, part) for every plane p of dx, d its cells in the compute type from +0:
// dx's own plane (f32, f64), or an f32 buffer of the part converted into dx after it
// (f16). The planes split over the kernel threads, a contiguous run per part, so a
// part's buffers (indexed by `part`, reserved by the caller for `parts` parts) serve
// one thread.
template <class T, class Plane> void forEachGradPlane(int64_t planes, int64_t inSize, int64_t parts, T* dx, Plane&& plane) {
  using C = ComputeOf<T>;
  constexpr bool kConverted = !std::is_same_v<T, C>;
  const ScratchCharge charge(kConverted ? static_cast<uint64_t>(inSize * parts) : 0, sizeof(C));
  std::vector<C> converted(kConverted ? static_cast<size_t>(inSize * parts) : 0);
  splitRowsInParts(planes, parts, [&](int64_t part, int64_t first, int64_t end) {
    for (int64_t p = first; p < end; ++p) {
      C* d;
      if constexpr (kConverted) d = converted.data() + part * inSize;
      else d = dx + p * inSize;
      std::fill(d, d + inSize, C(0));
      plane(d, p, part);
      if constexpr (kConverted)
        for (int64_t i = 0; i < inSize; ++i) dx[p * inSize + i] = static_cast<T>(d[i]);
    }
  });
}

// One kernel cell over an output row: the cell of output o is base + o * stride and
// src[o * stride] its value; a greater value takes the output, a NaN sets its flag.
// Branch-free: the data decides at random.
template <class T, class C, class I>
void maxCell(const T* __restrict src, I base, int64_t lo, int64_t hi, int64_t stride, C* __restrict best,
             I* __restrict at, I* __restrict nan) {
  for (int64_t o = lo; o < hi; ++o) {
    const C v = static_cast<C>(src[o * stride]);
    const bool take = v > best[o];
    nan[o] |= static_cast<I>(v != v);
    best[o] = take ? v : best[o];  // a NaN v keeps best (its flag is set)
    at[o] = take ? static_cast<I>(base + static_cast<I>(o * stride)) : at[o];
  }
}

// ins: x, g. Each output's gradient goes to the first cell of its window (row-major,
// padding cells read as -inf) that equals the window's maximum: the cell where the
// maximum first appears. A NaN maximum equals no cell; a padding cell drops it.
// Cell indices within a plane in I (i32 when a plane has fewer than 2^31 cells, so
// that they share vectors with f32 values).
template <class T, class I> void maxPoolGrad(const PoolGradState& s, const T* x, const T* g, T* dx) {
  using C = ComputeOf<T>;
  const Window& w = s.win;
  const int64_t inSize = w.inSize(), outSize = w.outSize(), width = w.out[2], stride = w.stride[2];
  const int64_t parts = rowParts(s.planes, outSize * w.kernelSize());
  const ScratchCharge charge(static_cast<uint64_t>(width * parts), sizeof(C) + 2 * sizeof(I));
  std::vector<C> bestParts(static_cast<size_t>(width * parts));
  std::vector<I> atParts(static_cast<size_t>(width * parts)), nanParts(static_cast<size_t>(width * parts));
  forEachGradPlane<T>(s.planes, inSize, parts, dx, [&](C* d, int64_t p, int64_t part) {
    const T* plane = x + p * inSize;
    const T* gp = g + p * outSize;
    C* best = bestParts.data() + part * width;
    I* at = atParts.data() + part * width;
    I* nan = nanParts.data() + part * width;
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh, gp += width) {
        // The window's first cell holds the maximum until a greater one comes.
        const int64_t id = od * w.stride[0] - w.padBegin[0], ih = oh * w.stride[1] - w.padBegin[1];
        const bool rowReal = id >= 0 && id < w.in[0] && ih >= 0 && ih < w.in[1];
        for (int64_t o = 0; o < width; ++o) {
          const int64_t iw = o * stride - w.padBegin[2];
          best[o] = C(-INFINITY);
          at[o] = static_cast<I>(rowReal && iw >= 0 && iw < w.in[2] ? (id * w.in[1] + ih) * w.in[2] + iw : -1);
          nan[o] = 0;
        }
        forEachKernelCell(w, od, oh, [&](int64_t row, int64_t lo, int64_t hi, int64_t offset) {
          if constexpr (kSimdFloat<T> && std::is_same_v<I, int32_t>)
            simd::tableOf<T>().poolArgMaxCell(plane + row + offset, static_cast<I>(row + offset), lo, hi, stride, best,
                                              at, nan);
          else
            maxCell(plane + row + offset, static_cast<I>(row + offset), lo, hi, stride, best, at, nan);
        });
        for (int64_t o = 0; o < width; ++o)
          if (!nan[o] && at[o] >= 0) d[at[o]] += static_cast<C>(gp[o]);
      }
  });

}

template <class T> void runMaxPoolGrad(const PoolGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const Window& w = s.win;
  if constexpr (std::is_same_v<T, C>) {
    if (isTiled2x2(w)) {  // one pass writing every cell of dx; a run of planes per kernel thread
      const int64_t planeIn = w.in[1] * w.in[2], planeOut = w.out[1] * w.out[2];
      splitRows(s.planes * w.in[0], planeIn, [&](int64_t first, int64_t end) {
        simd::tableOf<C>().maxPool2x2Grad(ins[0].as<const T>() + first * planeIn, ins[1].as<const T>() + first * planeOut,
                                          outs[0].as<T>() + first * planeIn, end - first, w.in[1], w.in[2], w.out[1],
                                          w.out[2]);
      });
      return;
    }
  }
  if (s.win.inSize() <= INT32_MAX) maxPoolGrad<T, int32_t>(s, ins[0].as<const T>(), ins[1].as<const T>(), outs[0].as<T>());
  else maxPoolGrad<T, int64_t>(s, ins[0].as<const T>(), ins[1].as<const T>(), outs[0].as<T>());
}

// ins: g. Each output's gradient is shared equally by its window's real cells
// (with count_include_pad, divided by the cells inside the padded input as the
// forward did; the padding cells' shares fall away).
template <class T> void runAveragePoolGrad(const PoolGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const Window& w = s.win;
  const int64_t inSize = w.inSize(), outSize = w.outSize(), width = w.out[2], stride = w.stride[2];
  const int64_t parts = rowParts(s.planes, outSize * w.kernelSize());
  const ScratchCharge charge(static_cast<uint64_t>(2 * width * parts), sizeof(C));
  std::vector<C> scratch(static_cast<size_t>(2 * width * parts));
  const T* g = ins[0].as<const T>();
  forEachGradPlane<T>(s.planes, inSize, parts, outs[0].as<T>(), [&](C* d, int64_t p, int64_t part) {
    const T* gp = g + p * outSize;
    C* share = scratch.data() + 2 * part * width;
    RowDivisors<C> divisorsOf(w, s.countIncludePad, share + width);
    for (int64_t od = 0; od < w.out[0]; ++od)
      for (int64_t oh = 0; oh < w.out[1]; ++oh, gp += width) {
        const C* n = divisorsOf.of(od, oh);
        if constexpr (kSimdFloat<T>) {
          simd::tableOf<T>().binary[simd::kDiv][simd::kVecVec](gp, n, share, width);
        } else {
          for (int64_t o = 0; o < width; ++o) share[o] = static_cast<C>(gp[o]) / n[o];
        }
        forEachKernelCell(w, od, oh, [&](int64_t row, int64_t lo, int64_t hi, int64_t offset) {
          simd::tableOf<C>().poolShareCell(share, d + row + offset, lo, hi, stride);
        });
      }
  });

}

PoolGradState poolGradState(const Op& op, const TensorType& x, const TensorType& g) {
  if (x.rank() < 3 || x.rank() > 5 || g.rank() != x.rank()) throw KernelError("pool needs N,C + 1..3 spatial dims");
  PoolGradState s;
  s.win = planWindow(op, x, nullptr);
  s.planes = x.shape[0] * x.shape[1];
  requireOutputShape(g, x.shape[0], x.shape[1], s.win);
  return s;
}

template <template <class> class Run> PreparedKernel floatPoolKernel(const Op& op, DType dtype, const PoolGradState& s) {
  if (!isFloat(dtype)) unsupported(op, TensorType{dtype, {}});
  return dispatchDType(dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<PoolGradState, Run<T>::run>(s);
    else return PreparedKernel{};
  });
}
template <class T> struct MaxPoolGradRun { static constexpr auto run = runMaxPoolGrad<T>; };
template <class T> struct AveragePoolGradRun { static constexpr auto run = runAveragePoolGrad<T>; };

}  // namespace

PreparedKernel preparePool(const Op& op, InTypes in, InTypes out) { return prepareBound<PoolFunctions>(op, in, out); }

PreparedKernel prepareMaxPoolGrad(const Op& op, InTypes in, InTypes) {  // x, g -> dx
  if (in.size() != 2 || in[0].dtype != in[1].dtype) throw KernelError("max_pool_grad needs x and g of one dtype");
  return floatPoolKernel<MaxPoolGradRun>(op, in[0].dtype, poolGradState(op, in[0], in[1]));
}

PreparedKernel prepareAveragePoolGrad(const Op& op, InTypes in, InTypes out) {  // g -> dx
  if (in.size() != 1 || out.size() != 1) throw KernelError("average_pool_grad needs one gradient");
  PoolGradState s = poolGradState(op, out[0], in[0]);
  s.countIncludePad = attrs::AveragePoolGrad{op}.count_include_pad();
  return floatPoolKernel<AveragePoolGradRun>(op, in[0].dtype, s);
}

}  // namespace pir::vm::detail
