// Reductions (sum mean prod max min sumsquare logsumexp l1 l2), argmax/argmin
// and softmax/log_softmax.
//
// At prepare time the reduced axes are coalesced. When they are adjacent ([outer,
// reduced, inner]), f32/f64 reductions run through the SIMD table: a contiguous row
// per output (inner == 1), or column by column over the reduced rows. Otherwise (and
// for integers, bool and f16) the kernel copies the input into [kept..., reduced...]
// order where needed, and each reduction is one Eigen rowwise() expression over an
// (outputs × reduced) row-major matrix.
//
// Integer sums and products wrap (computed in uint32); integer mean is the
// exact sum divided by the count, truncated toward zero. Float max/min
// propagate NaN. f16 computes in f32. Empty reductions give the identity
// (sum 0, prod 1, max -inf / lowest, min inf / highest, mean NaN).
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

// The reductions of the Reduce rows of ops.def (`Reduce(Fn)`): each states the
// element types it accepts; runReduce below computes them (their empty
// identities, integer and float paths side by side).
struct ReduceFunctions {
  static constexpr std::string_view family = "Reduce";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);

  // kTableKind: the SIMD table's reduceRow / reduceRows kind that computes the float
  // reduction over a block of axes (l2 is the square root of its sum of squares), or
  // -1 for the table's `sum` and `sumRows` (sum, mean) and for logsumexp's own path.
  struct Sum { static constexpr ElementTypes kAccepts = kNumbers; static constexpr int kTableKind = -1; };
  struct Mean { static constexpr ElementTypes kAccepts = kNumbers; static constexpr int kTableKind = -1; };
  struct Prod { static constexpr ElementTypes kAccepts = kNumbers; static constexpr int kTableKind = simd::kReduceProd; };
  struct Max { static constexpr ElementTypes kAccepts = kAll; static constexpr int kTableKind = simd::kReduceMax; };
  struct Min { static constexpr ElementTypes kAccepts = kAll; static constexpr int kTableKind = simd::kReduceMin; };
  struct SumSquare {
    static constexpr ElementTypes kAccepts = kNumbers;
    static constexpr int kTableKind = simd::kReduceSumSquare;
  };
  struct LogSumExp { static constexpr ElementTypes kAccepts = kFloats; static constexpr int kTableKind = -1; };
  struct L1 { static constexpr ElementTypes kAccepts = kNumbers; static constexpr int kTableKind = simd::kReduceAbsSum; };
  struct L2 { static constexpr ElementTypes kAccepts = kFloats; static constexpr int kTableKind = simd::kReduceSumSquare; };
};
using Red = ReduceFunctions;
template <class A, class B> inline constexpr bool kIs = std::is_same_v<A, B>;

template <class T> using RowArr = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T> using CRowArrMap = Eigen::Map<const RowArr<T>>;

// Reorders the input so that the axes in `last` (sorted) become trailing. The
// result describes a stridedCopy from the original buffer; `needed` is false
// when the input already is in that order.
struct Reorder {
  bool needed = false;
  Shape shape;                  // the reordered shape
  std::vector<int64_t> strides; // source strides for each reordered dim
  size_t keptDims = 0;          // the leading dims of `shape` that are kept (not moved last)
};

Reorder reorderTrailing(const Shape& shape, const std::vector<int64_t>& last) {
  Reorder r;
  const Shape strides = contiguousStrides(shape);
  std::vector<int64_t> order;
  std::vector<bool> isLast(shape.size(), false);
  for (int64_t a : last) isLast[a] = true;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!isLast[d]) order.push_back(static_cast<int64_t>(d));
  r.keptDims = order.size();
  for (int64_t a : last) order.push_back(a);
  // Only dims of size > 1 matter for whether data moves.
  int64_t prev = -1;
  for (int64_t d : order) {
    if (shape[d] == 1) continue;
    if (d < prev) r.needed = true;
    prev = d;
  }
  for (int64_t d : order) {
    r.shape.push_back(shape[d]);
    r.strides.push_back(strides[d]);
  }
  return r;
}

// Returns the input as a row-major (rows × cols) buffer: the original or a
// reordered copy in `scratch`.
template <class T> const T* reordered(const Reorder& r, const T* x, int64_t n, Vec<T>& scratch) {
  if (!r.needed) return x;
  scratch.resize(n);
  stridedCopy(scratch.data(), x, r.shape, r.strides, sizeof(T));
  return scratch.data();
}

struct ReduceState {
  Reorder reorder;
  int64_t rows = 0, cols = 0;  // rows: outputs; cols: elements reduced into each
  // When the reduced axes are one contiguous block of the input (size-1 dims
  // ignored): input = [outer, reduced, inner] without any reordering.
  bool block = false;
  int64_t outer = 1, reduced = 1, inner = 1;
  // When the reduced axes are a leading and a trailing block around the kept ones
  // (size-1 dims ignored; a conv bias gradient's N and H, W around C): input = [lead,
  // kept, runs], each output the reduction of `lead` runs of `run` contiguous elements.
  bool around = false;
  int64_t lead = 1, kept = 1, run = 1;
};

// Fills the [lead, kept, run] view of `shape` reduced over `axes`, if its dims of
// size > 1 are reduced, then kept, then reduced (at least one of each).
void planAround(ReduceState& s, const Shape& shape, const std::vector<int64_t>& axes) {
  int phase = 0;  // 0: the leading reduced dims, 1: the kept ones, 2: the trailing reduced ones
  int64_t lead = 1, kept = 1, run = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (shape[d] == 1) continue;
    const bool reduced = std::binary_search(axes.begin(), axes.end(), d);
    if (phase == 0 && !reduced) phase = lead > 1 ? 1 : -1;
    else if (phase == 1 && reduced) phase = 2;
    else if (phase == 2 && !reduced) return;
    if (phase < 0) return;  // no leading reduced dim
    int64_t& part = phase == 0 ? lead : phase == 1 ? kept : run;
    const auto product = checkedMul(part, shape[d]);
    if (!product) return;  // only an empty operand's dims overflow; it takes no special path
    part = *product;
  }
  if (phase != 2) return;
  s.around = true;
  s.lead = lead, s.kept = kept, s.run = run;
}

// Fills the [outer, reduced, inner] view of `shape` reduced over `axes`, if the
// non-trivial reduced axes are adjacent.
void planBlock(ReduceState& s, const Shape& shape, const std::vector<int64_t>& axes) {
  int64_t first = -1, last = -1;
  for (int64_t a : axes)
    if (shape[a] != 1) {
      if (first < 0) first = a;
      last = a;
    }
  for (int64_t d = first + 1; d < last; ++d)
    if (shape[d] != 1 && !std::binary_search(axes.begin(), axes.end(), d)) return;  // a kept axis in between
  s.block = true;
  s.outer = s.reduced = s.inner = 1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    // Saturating: only an empty operand's dims can overflow, and an empty
    // reduction never takes the block path.
    int64_t& part = first >= 0 && d >= first && d <= last ? s.reduced : (first < 0 || d < first) ? s.outer : s.inner;
    part = checkedMul(part, shape[d]).value_or(INT64_MAX);
  }
}

// Float sum and mean over axes that must be reordered: the reordered copy and the
// rows' sums split over the kernel threads along the first kept dim. Each part copies
// its rows to their places in the one scratch buffer and sums them there, so every
// row is summed at the same address by the same code as in one pass: the bits do not
// depend on the thread count. False when there is no kept dim to split along.
template <class T, class R> bool reduceSumReordered(const ReduceState& s, const T* x, T* y) {
  const Reorder& r = s.reorder;
  if (r.keptDims == 0 || s.rows == 0 || s.cols == 0) return false;
  const int64_t lead = r.shape[0], rowsPerLead = s.rows / lead;
  const ScratchCharge charge(static_cast<uint64_t>(s.rows * s.cols) * sizeof(T));
  Vec<T> scratch(s.rows * s.cols);
  splitRows(lead, rowsPerLead * s.cols, [&](int64_t first, int64_t end) {
    Shape part = r.shape;
    part[0] = end - first;
    T* rows = scratch.data() + first * rowsPerLead * s.cols;
    stridedCopy(rows, x + first * r.strides[0], part, r.strides, sizeof(T));
    using C = ComputeOf<T>;
    const auto m = CRowArrMap<T>(rows, (end - first) * rowsPerLead, s.cols).template cast<C>();
    Vec<C> sums;
    if constexpr (kIs<R, Red::Sum>) sums = m.rowwise().sum();
    else sums = m.rowwise().sum() / C(s.cols);
    VecMap<T>(y + first * rowsPerLead, (end - first) * rowsPerLead) = sums.template cast<T>();
  });
  return true;
}

// The serial fold's steps of max and min: a NaN so far stays; else a greater (less)
// value replaces it, and among equal values the later one.
template <class C> C nanMax(C a, C b) { return (a != a || a > b) ? a : b; }
template <class C> C nanMin(C a, C b) { return (a != a || a < b) ? a : b; }

// The float reductions of the SIMD table, in its documented orders (vm/simd_kernels.h):
// one contiguous row (`sum`, or reduceRow of R's kind), columns over rows (`sumRows`,
// or reduceRows), two partial results combined (added, multiplied, or the serial
// fold's max/min step, which gives the fold of the whole sequence), and the result
// finished (mean divided by its count, l2 its square root, IEEE).
template <class T, class R> T reduceContiguous(const simd::TypedTable<T>& f, const T* x, int64_t n) {
  if constexpr (R::kTableKind < 0) return f.sum(x, n);
  else return f.reduceRow[R::kTableKind](x, n);
}
template <class T, class R>
void reduceColumns(const simd::TypedTable<T>& f, const T* x, int64_t rows, int64_t cols, int64_t ld, T* y) {
  if constexpr (R::kTableKind < 0) f.sumRows(x, rows, cols, ld, y);
  else f.reduceRows[R::kTableKind](x, rows, cols, ld, y);
}
template <class T, class R> T reduceCombine(T acc, T v) {
  if constexpr (R::kTableKind == simd::kReduceProd) return acc * v;
  else if constexpr (R::kTableKind == simd::kReduceMax) return nanMax(acc, v);
  else if constexpr (R::kTableKind == simd::kReduceMin) return nanMin(acc, v);
  else return acc + v;
}
template <class T, class R> T reduceFinish(T acc, int64_t count) {
  if constexpr (kIs<R, Red::Mean>) return acc / static_cast<T>(count);
  else if constexpr (kIs<R, Red::L2>) return std::sqrt(acc);
  else return acc;
}

// sum, mean, prod, max, min, sumsquare, l1 and l2 of f32/f64 over one block of axes
// ([outer, reduced, inner]): a contiguous row of `reduced` elements per output (inner
// == 1), outputs split over the kernel threads; else column by column over the reduced
// rows, in row order, large ones split by columns. Each output is computed alone, so
// the bits do not depend on the thread count.
template <class T, class R> void reduceBlock(const ReduceState& s, const T* x, T* y) {
  const auto& f = simd::tableOf<T>();
  const int64_t slab = s.reduced * s.inner;
  if (s.inner == 1) {
    splitRows(s.outer, s.reduced, [&](int64_t o0, int64_t o1) {
      for (int64_t o = o0; o < o1; ++o) y[o] = reduceContiguous<T, R>(f, x + o * s.reduced, s.reduced);
    });
  } else {
    splitColumns(s.outer * slab, s.inner, [&](int64_t c0, int64_t c1) {
      for (int64_t o = 0; o < s.outer; ++o)
        reduceColumns<T, R>(f, x + o * slab + c0, s.reduced, c1 - c0, s.inner, y + o * s.inner + c0);
    });
  }
  if constexpr (kIs<R, Red::Mean> || kIs<R, Red::L2>)
    for (int64_t i = 0; i < s.outer * s.inner; ++i) y[i] = reduceFinish<T, R>(y[i], s.reduced);
}

// The same reductions over a leading and a trailing block of axes ([lead, kept, run])
// without a reordered copy: each output folds its `lead` runs of `run` contiguous
// elements in order, each run reduced as a contiguous row is. Outputs split over the
// kernel threads; each is computed alone, so the bits do not depend on the thread count.
template <class T, class R> void reduceAround(const ReduceState& s, const T* x, T* y) {
  const auto& f = simd::tableOf<T>();
  splitRows(s.kept, s.lead * s.run, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      T acc = reduceContiguous<T, R>(f, x + k * s.run, s.run);
      for (int64_t a = 1; a < s.lead; ++a)
        acc = reduceCombine<T, R>(acc, reduceContiguous<T, R>(f, x + (a * s.kept + k) * s.run, s.run));
      y[k] = reduceFinish<T, R>(acc, s.lead * s.run);
    }
  });
}

// Columns of softmax and logsumexp over a leading axis go in blocks of this many, so
// that their maxima, sums and a row of exponentials stay in L1.
constexpr int64_t kExpColumns = 1024;

// The column counterpart of the table's shiftExpSum: over `rows` rows of n columns
// (row r at x + r*ld), e = exp(x - m) and, where `shifted` is given, shifted = x - m,
// each as the table's kSub and kExp loops compute it; sum[c] = column c's e added in
// row order. Row r of `shifted` is at shifted + r*ld, of e at e + r*eLd (eLd 0: one
// row of scratch).
template <class T>
void shiftExpSumRows(const simd::TypedTable<T>& f, const T* x, int64_t rows, int64_t n, int64_t ld, const T* m,
                     std::type_identity_t<T>* shifted, T* e, int64_t eLd, T* sum) {
  for (int64_t r = 0; r < rows; ++r) {
    T* er = e + r * eLd;
    T* xm = shifted ? shifted + r * ld : er;
    f.binary[simd::kSub][simd::kVecVec](x + r * ld, m, xm, n);
    f.unary[simd::kExp](xm, er, n);
    if (r == 0) std::copy(er, er + n, sum);
    else f.binary[simd::kAdd][simd::kVecVec](sum, er, sum, n);
  }
}

// logsumexp of f32/f64 over one block of axes: m = the maximum (reduceRow's or
// reduceRows' kReduceMax; 0 where it is not finite), then log(sum(exp(x - m))) + m,
// each exp as the table's kExp loop computes it. A contiguous row (inner == 1) sums
// in `sum`'s order (shiftExpSum); a column over rows sums in row order.
template <class T> void logSumExpBlock(const ReduceState& s, const T* x, T* y) {
  const auto& f = simd::tableOf<T>();
  const int64_t slab = s.reduced * s.inner;
  auto finiteOrZero = [](T m) { return std::isfinite(m) ? m : T(0); };
  // y[0..n) = log(y[0..n)) + m[0..n), the logarithms in one call of the table's loop.
  auto logPlus = [&](T* y, const T* m, int64_t n) {
    f.unary[simd::kLog](y, y, n);
    f.binary[simd::kAdd][simd::kVecVec](y, m, y, n);
  };
  if (s.inner == 1) {  // per part: a row of exponentials, and the rows' maxima
    const uint64_t perPart = saturatingAdd(static_cast<uint64_t>(s.reduced), static_cast<uint64_t>(s.outer));
    const ScratchCharge charge(saturatingMul(perPart, static_cast<uint64_t>(simd::kernelThreads())), sizeof(T));
    splitRows(s.outer, s.reduced, [&](int64_t o0, int64_t o1) {
      std::vector<T> e(static_cast<size_t>(s.reduced)), m(static_cast<size_t>(o1 - o0));
      for (int64_t o = o0; o < o1; ++o) {
        const T* row = x + o * s.reduced;
        m[static_cast<size_t>(o - o0)] = finiteOrZero(f.reduceRow[simd::kReduceMax](row, s.reduced));
        y[o] = f.shiftExpSum(row, m[static_cast<size_t>(o - o0)], nullptr, e.data(), s.reduced);
      }
      logPlus(y + o0, m.data(), o1 - o0);
    });
    return;
  }
  const ScratchCharge charge(saturatingMul(static_cast<uint64_t>(s.inner), 3), sizeof(T));
  std::vector<T> m(static_cast<size_t>(s.inner)), sums(m.size()), e(m.size());
  splitColumns(s.outer * slab, s.inner, [&](int64_t c0, int64_t c1) {
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t b = c0; b < c1; b += kExpColumns) {
        const int64_t n = std::min(kExpColumns, c1 - b);
        const T* block = x + o * slab + b;
        T *mb = m.data() + b, *sb = sums.data() + b;
        f.reduceRows[simd::kReduceMax](block, s.reduced, n, s.inner, mb);
        for (int64_t c = 0; c < n; ++c) mb[c] = finiteOrZero(mb[c]);
        shiftExpSumRows(f, block, s.reduced, n, s.inner, mb, nullptr, e.data() + b, 0, sb);
        logPlus(sb, mb, n);
        std::copy(sb, sb + n, y + o * s.inner + b);
      }
  });
}


template <class T, class R> void runReduce(const ReduceState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (s.rows > 0 && s.cols > 0) {
      if constexpr (kIs<R, Red::LogSumExp>) {
        if (s.block) return logSumExpBlock<T>(s, ins[0].as<const T>(), outs[0].as<T>());
      } else {
        if (s.block) return reduceBlock<T, R>(s, ins[0].as<const T>(), outs[0].as<T>());
        if (s.around) return reduceAround<T, R>(s, ins[0].as<const T>(), outs[0].as<T>());
      }
    }
  }
  if constexpr (kIsFloat<T> && (kIs<R, Red::Sum> || kIs<R, Red::Mean>)) {
    if (s.reorder.needed && reduceSumReordered<T, R>(s, ins[0].as<const T>(), outs[0].as<T>())) return;
  }
  // Scratch: the reordered input; logsumexp's shifted copy.
  const uint64_t n = static_cast<uint64_t>(s.rows * s.cols);
  const ScratchCharge charge((s.reorder.needed ? n * sizeof(T) : 0) +
                             (kIs<R, Red::LogSumExp> ? n * sizeof(ComputeOf<T>) : 0));
  Vec<T> scratch;
  const T* x = reordered(s.reorder, ins[0].as<const T>(), s.rows * s.cols, scratch);
  VecMap<T> y(outs[0].as<T>(), s.rows);
  if (s.rows == 0) return;
  if (s.cols == 0) {  // empty reduction: the identity
    if constexpr (kIs<R, Red::Prod>) y.setConstant(T(1));
    else if constexpr (kIs<R, Red::Max>) y.setConstant(kIsFloat<T> ? T(-INFINITY) : std::numeric_limits<T>::lowest());
    else if constexpr (kIs<R, Red::Min>) y.setConstant(kIsFloat<T> ? T(INFINITY) : std::numeric_limits<T>::max());
    else if constexpr (kIs<R, Red::LogSumExp>) y.setConstant(T(-INFINITY));
    else if constexpr (kIs<R, Red::Mean> && kIsFloat<T>) y.setConstant(T(NAN));
    else y.setConstant(T(0));
    return;
  }
  const CRowArrMap<T> m(x, s.rows, s.cols);
  if constexpr (kIsBool<T>) {
    if constexpr (kIs<R, Red::Max>) y = m.rowwise().any();
    else y = m.rowwise().all();
  } else if constexpr (kIsInt<T>) {
    using W = uint32_t;  // wrapping accumulator
    auto mw = m.template cast<W>();
    if constexpr (kIs<R, Red::Sum>) y = mw.rowwise().sum().template cast<T>();
    else if constexpr (kIs<R, Red::Prod>) y = mw.rowwise().prod().template cast<T>();
    else if constexpr (kIs<R, Red::SumSquare>) y = mw.square().rowwise().sum().template cast<T>();
    else if constexpr (kIs<R, Red::L1>) {
      auto absw = m.unaryExpr([](T v) { return v < 0 ? W(0u - static_cast<W>(v)) : static_cast<W>(v); });
      y = absw.rowwise().sum().template cast<T>();
    } else if constexpr (kIs<R, Red::Mean>) {
      y = (m.template cast<int64_t>().rowwise().sum() / s.cols).template cast<T>();
    } else if constexpr (kIs<R, Red::Max>) y = m.rowwise().maxCoeff();
    else y = m.rowwise().minCoeff();
  } else {
    using C = ComputeOf<T>;
    auto mc = m.template cast<C>();
    Vec<C> r;
    if constexpr (kIs<R, Red::Sum>) r = mc.rowwise().sum();
    else if constexpr (kIs<R, Red::Mean>) r = mc.rowwise().sum() / C(s.cols);
    else if constexpr (kIs<R, Red::Prod>) r = mc.rowwise().prod();
    else if constexpr (kIs<R, Red::SumSquare>) r = mc.square().rowwise().sum();
    else if constexpr (kIs<R, Red::L1>) r = mc.abs().rowwise().sum();
    else if constexpr (kIs<R, Red::L2>) {  // IEEE sqrt per output (Eigen's vector sqrt is approximate)
      r = mc.square().rowwise().sum();
      for (int64_t i = 0; i < s.rows; ++i) r[i] = std::sqrt(r[i]);
    }
    else if constexpr (kIs<R, Red::Max>) r = mc.rowwise().redux([](C a, C b) { return nanMax(a, b); });
    else if constexpr (kIs<R, Red::Min>) r = mc.rowwise().redux([](C a, C b) { return nanMin(a, b); });
    else {  // logsumexp, shifted by the (finite) row max for stability
      Vec<C> mx = mc.rowwise().redux([](C a, C b) { return nanMax(a, b); });
      mx = mx.isFinite().select(mx, C(0));
      RowArr<C> e = mc.colwise() - mx;
      const auto& fns = simd::tableOf<C>();
      fns.unary[simd::kExp](e.data(), e.data(), e.size());
      r.resize(s.rows);
      for (int64_t i = 0; i < s.rows; ++i) r[i] = fns.sum(e.data() + i * s.cols, s.cols);
      fns.unary[simd::kLog](r.data(), r.data(), s.rows);
      r += mx;
    }
    y = r.template cast<T>();
  }
}

// ---- argmax / argmin ---------------------------------------------------------

struct ArgReduceState {
  ReduceState layout;      // the axis moved last: rows of `cols` candidates
  bool lastIndex = false;  // select_last_index: the last extreme wins, not the first
};

template <class T, bool IsMax>
void runArgReduce(const ArgReduceState& a, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const ReduceState& s = a.layout;
  // f32/f64 through the SIMD table (the same winner as the loop below): a contiguous
  // row per output (argRow), or over a leading or middle axis column by column over
  // its rows (argRows), without the reordered copy.
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (s.block && s.inner == 1 && s.rows > 0 && s.cols > 0) {  // contiguous rows: the table's argRow
      const auto fn = simd::tableOf<T>().argRow[IsMax ? 1 : 0];
      const T* x = ins[0].as<const T>();
      int32_t* y = outs[0].as<int32_t>();
      splitRows(s.outer, s.reduced, [&](int64_t o0, int64_t o1) {
        for (int64_t o = o0; o < o1; ++o) y[o] = static_cast<int32_t>(fn(x + o * s.reduced, s.reduced, a.lastIndex));
      });
      return;
    }
    if (s.block && s.inner > 1 && s.rows > 0 && s.cols > 0) {
      const auto fn = simd::tableOf<T>().argRows[IsMax ? 1 : 0];
      const T* x = ins[0].as<const T>();
      int32_t* y = outs[0].as<int32_t>();
      const int64_t slab = s.reduced * s.inner;
      splitColumns(s.outer * slab, s.inner, [&](int64_t c0, int64_t c1) {
        for (int64_t o = 0; o < s.outer; ++o)
          fn(x + o * slab + c0, s.reduced, c1 - c0, s.inner, a.lastIndex, y + o * s.inner + c0);
      });
      return;
    }
  }
  const ScratchCharge charge(s.reorder.needed ? static_cast<uint64_t>(s.rows * s.cols) * sizeof(T) : 0);
  Vec<T> scratch;
  const T* x = reordered(s.reorder, ins[0].as<const T>(), s.rows * s.cols, scratch);
  int32_t* y = outs[0].as<int32_t>();
  using C = ComputeOf<T>;
  // Candidates are visited from the winning end: the first one met that no later
  // one beats wins, and a NaN is the extreme (NumPy; with select_last_index, the
  // last NaN, as ONNX's reference computes it on the reversed row).
  const int64_t first = a.lastIndex ? s.cols - 1 : 0, step = a.lastIndex ? -1 : 1;
  for (int64_t r = 0; r < s.rows; ++r) {
    const T* row = x + r * s.cols;
    int64_t best = first;
    C bv = static_cast<C>(row[first]);
    for (int64_t k = 1, i = first + step; k < s.cols && bv == bv; ++k, i += step) {
      const C v = static_cast<C>(row[i]);
      if (v != v || (IsMax ? v > bv : v < bv)) {
        best = i;
        bv = v;
      }
    }
    y[r] = static_cast<int32_t>(best);
  }
}

// ---- softmax / log_softmax ------------------------------------------------------

struct SoftmaxState {
  ReduceState layout;           // axis moved last
  Shape backShape;              // to copy the result back: reordered-layout view of the output
  std::vector<int64_t> backStrides;
};

// log_softmax along rows takes the logarithms of a block of this many rows' sums in
// one call of the table's loop (each element computed alone, so the same bits as one
// call per row): one call per row of 64 cost as much as the row's exponentials.
constexpr int64_t kLogSumRows = 64;

// Softmax over the last axis of f32/f64 rows, one row at a time in the output and
// one row of scratch: the operations of the general path below, in its order, so the
// bits are the same without its five full-size temporaries.
// Rows are independent: large operands split them over the kernel threads.
template <class T, bool Log> void softmaxRowRange(const T* x, T* y, int64_t rows, int64_t cols) {
  const auto& fns = simd::tableOf<T>();
  std::vector<T> scratch(Log ? static_cast<size_t>(cols) : 0);  // one row of exp, charged by softmaxRows
  T sums[Log ? kLogSumRows : 1];
  bool finite[Log ? kLogSumRows : 1];
  for (int64_t r0 = 0; r0 < rows; r0 += Log ? kLogSumRows : rows) {
    const int64_t r1 = Log ? std::min(rows, r0 + kLogSumRows) : rows;
    for (int64_t r = r0; r < r1; ++r) {
      const T* xr = x + r * cols;
      T* yr = y + r * cols;
      const T mx = fns.reduceRow[simd::kReduceMax](xr, cols);  // the serial fold's, a zero's sign included
      if (!std::isfinite(mx)) {
        // x - max has a NaN (+inf, a NaN, or -inf everywhere): the whole row is NaN
        // (PyTorch), as on the general path below.
        std::fill(yr, yr + cols, std::numeric_limits<T>::quiet_NaN());
        if constexpr (Log) finite[r - r0] = false, sums[r - r0] = T(1);
        continue;
      }
      // y = x - mx (log_softmax) and e = exp(x - mx), with the sum of e.
      const T sum = fns.shiftExpSum(xr, mx, Log ? yr : nullptr, Log ? scratch.data() : yr, cols);
      if constexpr (Log) finite[r - r0] = true, sums[r - r0] = sum;
      else fns.binary[simd::kDiv][simd::kVecScalar](yr, &sum, yr, cols);
    }
    if constexpr (Log) {
      fns.unary[simd::kLog](sums, sums, r1 - r0);
      for (int64_t r = r0; r < r1; ++r)
        if (finite[r - r0]) fns.binary[simd::kSub][simd::kVecScalar](y + r * cols, &sums[r - r0], y + r * cols, cols);
    }
  }
}

template <class T, bool Log> void softmaxRows(const T* x, T* y, int64_t rows, int64_t cols) {
  const ScratchCharge charge(Log ? saturatingMul(static_cast<uint64_t>(cols), static_cast<uint64_t>(simd::kernelThreads())) : 0,
                             sizeof(T));
  splitRows(rows, cols, [&](int64_t r0, int64_t r1) {
    softmaxRowRange<T, Log>(x + r0 * cols, y + r0 * cols, r1 - r0, cols);
  });
}

// Softmax over a leading or middle axis of f32/f64 ([outer, axis, inner], inner > 1),
// column by column over the axis's rows, in blocks of columns whose maxima, sums and
// exponentials stay in L1: m = the column's maximum (the serial fold's; a column
// whose maximum is not finite is NaN throughout, as on the general path), y = exp(x -
// m) (log_softmax: x - m), the exponentials summed in row order, then y / sum
// (log_softmax: y - log(sum)); each element as the table's loops compute it. Each
// column is computed alone, so the bits do not depend on the split (outer slabs over
// the kernel threads, or columns when there is one slab).
template <class T, bool Log> void softmaxColumns(const ReduceState& s, const T* x, T* y) {
  const auto& f = simd::tableOf<T>();
  const int64_t slab = s.reduced * s.inner;
  const ScratchCharge charge(saturatingMul(3 * kExpColumns, static_cast<uint64_t>(simd::kernelThreads())), sizeof(T));
  auto columns = [&](int64_t o0, int64_t o1, int64_t c0, int64_t c1) {
    std::vector<T> m(kExpColumns), sum(kExpColumns), e(kExpColumns);
    for (int64_t o = o0; o < o1; ++o)
      for (int64_t b = c0; b < c1; b += kExpColumns) {
        const int64_t n = std::min(kExpColumns, c1 - b);
        const T* xb = x + o * slab + b;
        T* yb = y + o * slab + b;
        f.reduceRows[simd::kReduceMax](xb, s.reduced, n, s.inner, m.data());
        bool anyNonFinite = false;
        for (int64_t c = 0; c < n; ++c) anyNonFinite = anyNonFinite || !std::isfinite(m[c]);
        // log_softmax keeps x - m in y and the exponentials in scratch; softmax the
        // exponentials in y.
        if constexpr (Log) shiftExpSumRows(f, xb, s.reduced, n, s.inner, m.data(), yb, e.data(), 0, sum.data());
        else shiftExpSumRows(f, xb, s.reduced, n, s.inner, m.data(), nullptr, yb, s.inner, sum.data());
        if constexpr (Log) f.unary[simd::kLog](sum.data(), sum.data(), n);
        for (int64_t r = 0; r < s.reduced; ++r) {
          T* yr = yb + r * s.inner;
          f.binary[Log ? simd::kSub : simd::kDiv][simd::kVecVec](yr, sum.data(), yr, n);
        }
        if (anyNonFinite)
          for (int64_t c = 0; c < n; ++c)
            if (!std::isfinite(m[c]))
              for (int64_t r = 0; r < s.reduced; ++r) yb[r * s.inner + c] = std::numeric_limits<T>::quiet_NaN();
      }
  };
  if (s.outer >= 2) {
    splitRows(s.outer, slab, [&](int64_t o0, int64_t o1) { columns(o0, o1, 0, s.inner); });
  } else {
    splitColumns(slab, s.inner, [&](int64_t c0, int64_t c1) { columns(0, 1, c0, c1); });
  }
}

template <class T, bool Log> void runSoftmax(const SoftmaxState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const int64_t rows = s.layout.rows, cols = s.layout.cols, n = rows * cols;
  if (n == 0) return;
  if constexpr (std::is_same_v<T, C>) {
    if (!s.layout.reorder.needed) return softmaxRows<T, Log>(ins[0].as<const T>(), outs[0].as<T>(), rows, cols);
    if (s.layout.block && s.layout.inner > 1)
      return softmaxColumns<T, Log>(s.layout, ins[0].as<const T>(), outs[0].as<T>());
  }
  // Scratch: four row-major copies in C (xc, shifted, e, r), and the reordered
  // input and result in T when the axis is not last.
  const ScratchCharge charge(static_cast<uint64_t>(n) *
                             (4 * sizeof(C) + (s.layout.reorder.needed ? 2 * sizeof(T) : 0)));
  Vec<T> scratch;
  const T* x = reordered(s.layout.reorder, ins[0].as<const T>(), n, scratch);
  const CRowArrMap<T> m(x, rows, cols);
  const RowArr<C> xc = m.template cast<C>();
  const Vec<C> rowMax = xc.rowwise().redux([](C a, C b) { return nanMax(a, b); });
  const Vec<C> mx = rowMax.isFinite().select(rowMax, C(0));
  const RowArr<C> shifted = xc.colwise() - mx;
  // exp, sums and log through the vm/simd_kernels.h loops (exact to ~1 ulp,
  // the same function for every element).
  const auto& fns = simd::tableOf<C>();
  RowArr<C> e(rows, cols);
  fns.unary[simd::kExp](shifted.data(), e.data(), n);
  Vec<C> sum(rows);
  for (int64_t i = 0; i < rows; ++i) sum[i] = fns.sum(e.data() + i * cols, cols);
  RowArr<C> r;
  if constexpr (Log) {
    fns.unary[simd::kLog](sum.data(), sum.data(), rows);
    r = shifted.colwise() - sum;
  } else {
    r = e.colwise() / sum;
  }
  // A row whose max is not finite (+inf, a NaN, or -inf everywhere) has NaN in
  // x - max: the whole row is NaN (PyTorch), softmax and log_softmax alike.
  for (int64_t i = 0; i < rows; ++i)
    if (!std::isfinite(rowMax[i])) r.row(i).setConstant(std::numeric_limits<C>::quiet_NaN());
  if (!s.layout.reorder.needed) {
    Eigen::Map<RowArr<T>>(outs[0].as<T>(), rows, cols) = r.template cast<T>();
  } else {
    const RowArr<T> rt = r.template cast<T>();
    stridedCopy(outs[0].data, rt.data(), s.backShape, s.backStrides, sizeof(T));
  }
}

}  // namespace

template <class Fn> PreparedKernel ReduceFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if (in.empty()) throw KernelError("'" + std::string(op.info().name) + "' is not a reduction");
  const std::vector<int64_t> axes = resolveAxes(attrs::View<attrs::kernelFamily("Reduce")>{op}.axis(), in[0].rank());
  ReduceState s;
  s.reorder = reorderTrailing(in[0].shape, axes);
  // Checked products: an operand with a 0 dim has other dims that need not multiply.
  Shape reducedDims, keptDims;
  for (size_t d = 0; d < in[0].shape.size(); ++d)
    (std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(d)) ? reducedDims : keptDims)
        .push_back(in[0].shape[d]);
  s.cols = numElements(reducedDims);
  s.rows = numElements(keptDims);
  if (out.empty() || out[0].numElements() != s.rows || out[0].dtype != in[0].dtype)
    throw KernelError("result type does not match the reduction of " + in[0].str());
  planBlock(s, in[0].shape, axes);
  if (!s.block) planAround(s, in[0].shape, axes);
  PreparedKernel k = dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (accepts<T>(Fn::kAccepts)) return makeKernel<ReduceState, runReduce<T, Fn>>(std::move(s));
    else return PreparedKernel{};
  });
  if (!k.fn) unsupported(op, in[0]);
  return k;
}

PreparedKernel prepareReduce(const Op& op, InTypes in, InTypes out) { return prepareBound<ReduceFunctions>(op, in, out); }

static ReduceState axisLast(const TensorType& t, int64_t axis) {
  ReduceState s;
  s.reorder = reorderTrailing(t.shape, t.rank() == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{axis});
  s.cols = t.rank() == 0 ? 1 : t.shape[axis];
  s.rows = s.cols == 0 ? 0 : t.numElements() / s.cols;
  return s;
}

// argmax / argmin (`ArgReduce(Max)`, `ArgReduce(Min)`): which extreme wins.
struct ArgReduceFunctions {
  static constexpr std::string_view family = "ArgReduce";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);
  struct Max { static constexpr bool kIsMax = true; };
  struct Min { static constexpr bool kIsMax = false; };
};

template <class Fn> PreparedKernel ArgReduceFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if (in.empty()) throw KernelError("argmax/argmin needs an operand");
  const attrs::View<attrs::kernelFamily("ArgReduce")> attr{op};
  const int64_t axis = resolveAxis(attr.axis(), in[0].rank());
  ArgReduceState s{axisLast(in[0], axis), attr.select_last_index()};
  if (in[0].rank() > 0) planBlock(s.layout, in[0].shape, {axis});
  if (in[0].rank() > 0 && in[0].shape[axis] == 0)
    throw KernelError("'" + std::string(op.info().name) + "' of an empty axis");
  return dispatchDType(in[0].dtype, [&]<class T>() { return makeKernel<ArgReduceState, runArgReduce<T, Fn::kIsMax>>(s); });
}

PreparedKernel prepareArgReduce(const Op& op, InTypes in, InTypes out) {
  return prepareBound<ArgReduceFunctions>(op, in, out);
}

// softmax / log_softmax (`Softmax(Softmax)`, `Softmax(LogSoftmax)`).
struct SoftmaxFunctions {
  static constexpr std::string_view family = "Softmax";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);
  struct Softmax { static constexpr bool kLog = false; };
  struct LogSoftmax { static constexpr bool kLog = true; };
};

template <class Fn> PreparedKernel SoftmaxFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || !isFloat(in[0].dtype)) {
    if (in.empty()) throw KernelError("softmax needs an operand");
    unsupported(op, in[0]);
  }
  const int64_t axis = resolveAxis(attrs::View<attrs::kernelFamily("Softmax")>{op}.axis(), in[0].rank());
  SoftmaxState s;
  s.layout = axisLast(in[0], axis);
  if (in[0].rank() > 0) planBlock(s.layout, in[0].shape, {axis});
  if (s.layout.reorder.needed) {
    // Result in [others..., axis] order → output in original order: walk the
    // output's dims reading the scratch with the scratch's strides.
    const Shape& shape = in[0].shape;
    const Shape scratchStrides = contiguousStrides(s.layout.reorder.shape);
    s.backShape = shape;
    s.backStrides.assign(shape.size(), 0);
    size_t pos = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != axis) s.backStrides[d] = scratchStrides[pos++];
    s.backStrides[axis] = scratchStrides.back();
  }
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return PreparedKernel{};
    else return makeKernel<SoftmaxState, runSoftmax<T, Fn::kLog>>(s);
  });
}

PreparedKernel prepareSoftmax(const Op& op, InTypes in, InTypes out) { return prepareBound<SoftmaxFunctions>(op, in, out); }

// The dims before the axis: each of its rows is normalised on its own.
int64_t softmaxIndependentDims(const Op& op, InTypes in, InTypes) {
  if (in.empty() || in[0].rank() == 0) return 0;
  return resolveAxis(attrs::View<attrs::kernelFamily("Softmax")>{op}.axis(), in[0].rank());
}

// ---- softmax_grad / log_softmax_grad ------------------------------------------------

// The operands as [outer, axis, inner] slabs.
struct SoftmaxGradState {
  int64_t outer = 1, axis = 1, inner = 1;
};

// One slab of f32/f64 at a time with the operations of the chain of ops the
// gradients used to be, in their order and roundings, so the bits are the same:
//   softmax:     gy = g * y;  s = sum(gy over the axis);  dx = gy - y * s
//   log_softmax: s = sum(g over the axis);  dx = g - exp(y) * s
// The sums take the reduction's order (vm/simd_kernels.h): 16 partials along a
// contiguous axis, row by row over a leading one.
template <class T, bool Log> void softmaxGradSlabs(const SoftmaxGradState& s, const T* y, const T* g, T* dx) {
  const auto& fns = simd::tableOf<T>();
  const int64_t slab = s.axis * s.inner, rowScratch = s.inner == 1 ? s.axis : s.inner;
  std::vector<T> sums(static_cast<size_t>(s.inner)), t(static_cast<size_t>(rowScratch));
  const auto mul = fns.binary[simd::kMul], sub = fns.binary[simd::kSub];
  for (int64_t o = 0; o < s.outer; ++o, y += slab, g += slab, dx += slab) {
    if (s.inner == 1) {  // a contiguous axis: one row
      if constexpr (Log) {
        sums[0] = fns.sum(g, s.axis);
        fns.unary[simd::kExp](y, t.data(), s.axis);
        mul[simd::kVecScalar](t.data(), sums.data(), t.data(), s.axis);
        sub[simd::kVecVec](g, t.data(), dx, s.axis);
      } else {
        fns.softmaxGradRow(y, g, s.axis, dx);  // gy, its sum and gy - y * s in one call
      }
      continue;
    }
    const T* summed = g;
    if constexpr (!Log) {
      mul[simd::kVecVec](g, y, dx, slab);
      summed = dx;
    }
    fns.sumRows(summed, s.axis, s.inner, s.inner, sums.data());
    const T* kept = Log ? g : dx;  // g, or g * y
    for (int64_t a = 0; a < s.axis; ++a) {
      const int64_t at = a * s.inner;
      if constexpr (Log) fns.unary[simd::kExp](y + at, t.data(), s.inner);
      mul[simd::kVecVec](Log ? t.data() : y + at, sums.data(), t.data(), s.inner);
      sub[simd::kVecVec](kept + at, t.data(), dx + at, s.inner);
    }
  }
}

// Other float types: the same formulas in f32, rounded once.
template <class T, bool Log> void softmaxGradViaF32(const SoftmaxGradState& s, const T* y, const T* g, T* dx) {
  const int64_t n = s.outer * s.axis * s.inner;
  const int64_t rowScratch = s.inner == 1 ? s.axis : s.inner;  // softmaxGradSlabs's
  const ScratchCharge charge(static_cast<uint64_t>(3 * n + s.inner + rowScratch), sizeof(float));
  std::vector<float> yf(static_cast<size_t>(n)), gf(static_cast<size_t>(n)), df(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) yf[i] = static_cast<float>(y[i]), gf[i] = static_cast<float>(g[i]);
  softmaxGradSlabs<float, Log>(s, yf.data(), gf.data(), df.data());
  for (int64_t i = 0; i < n; ++i) dx[i] = static_cast<T>(df[i]);
}

template <class T, bool Log>
void runSoftmaxGrad(const SoftmaxGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  if (s.outer == 0 || s.axis == 0 || s.inner == 0) return;
  const T* y = ins[0].as<const T>();
  const T* g = ins[1].as<const T>();
  T* dx = outs[0].as<T>();
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // Slabs are independent: large operands split them over the kernel threads.
    const int64_t slab = s.axis * s.inner, rowScratch = s.inner == 1 ? s.axis : s.inner;
    // Each part's scratch (softmaxGradSlabs), charged before the split.
    const ScratchCharge charge(saturatingMul(static_cast<uint64_t>(s.inner + rowScratch),
                                             static_cast<uint64_t>(simd::kernelThreads())),
                               sizeof(T));
    splitRows(s.outer, slab, [&](int64_t o0, int64_t o1) {
      SoftmaxGradState part = s;
      part.outer = o1 - o0;
      softmaxGradSlabs<T, Log>(part, y + o0 * slab, g + o0 * slab, dx + o0 * slab);
    });
  } else {
    softmaxGradViaF32<T, Log>(s, y, g, dx);
  }
}

// softmax_grad / log_softmax_grad (`SoftmaxGrad(Softmax)`, `SoftmaxGrad(LogSoftmax)`).
struct SoftmaxGradFunctions {
  static constexpr std::string_view family = "SoftmaxGrad";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);
  struct Softmax { static constexpr bool kLog = false; };
  struct LogSoftmax { static constexpr bool kLog = true; };
};

template <class Fn> PreparedKernel SoftmaxGradFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 2 || out.empty() || !(in[1] == in[0]) || !(out[0] == in[0]))
    throw KernelError("'" + std::string(op.info().name) + "' needs y and g of one type");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  const Shape& shape = in[0].shape;
  SoftmaxGradState s;  // a scalar is one slab of one element
  if (!shape.empty()) {
    const size_t axis = static_cast<size_t>(resolveAxis(attrs::View<attrs::kernelFamily("SoftmaxGrad")>{op}.axis(), in[0].rank()));
    s.outer = dimProduct(shape, 0, axis);
    s.axis = dimProduct(shape, axis, axis + 1);
    s.inner = dimProduct(shape, axis + 1, shape.size());
  }
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return PreparedKernel{};
    else return makeKernel<SoftmaxGradState, runSoftmaxGrad<T, Fn::kLog>>(s);
  });
}

PreparedKernel prepareSoftmaxGrad(const Op& op, InTypes in, InTypes out) {
  return prepareBound<SoftmaxGradFunctions>(op, in, out);
}

// The dims before the axis: each slab is computed on its own (softmaxGradSlabs).
int64_t softmaxGradIndependentDims(const Op& op, InTypes in, InTypes) {
  if (in.empty() || in[0].rank() == 0) return 0;
  return resolveAxis(attrs::View<attrs::kernelFamily("SoftmaxGrad")>{op}.axis(), in[0].rank());
}

}  // namespace pir::vm::detail
