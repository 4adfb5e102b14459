// Indexing kernels: gather, gather_grad, scatter, dynamic_slice, dynamic_update(_),
// subsample, onehot, cumsum, topk.
//
// Index semantics: gather/scatter accept indices in [-dim, dim) (negative counts
// from the end); anything else is the runtime error "index N is out of range
// for an axis of size D". dynamic_slice/update clamp the start so that the
// slice fits (PopXL). onehot (ONNX OneHot) counts an index in [-num_classes, 0)
// from the end and gives an all-`off` row for one outside [-num_classes, num_classes).
#include <numeric>

#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm::detail {
namespace {

int64_t readIndex(const TensorRef& t, int64_t i) { return static_cast<int64_t>(readAsDouble(t, i)); }

int64_t checkedIndex(int64_t idx, int64_t dim) {
  if (idx < -dim || idx >= dim)
    throw KernelError("index " + std::to_string(idx) + " is out of range for an axis of size " + std::to_string(dim));
  return idx < 0 ? idx + dim : idx;
}

// Every index of `indices` (n of them) checked against an axis of `dim` and made
// non-negative, charged to the kernel's scratch budget before it is allocated.
class CheckedIndices {
 public:
  CheckedIndices(const TensorRef& indices, int64_t n, int64_t dim)
      : charge_(n, sizeof(int64_t)), values_(static_cast<size_t>(n)) {
    for (int64_t j = 0; j < n; ++j) values_[static_cast<size_t>(j)] = checkedIndex(readIndex(indices, j), dim);
  }
  int64_t operator[](int64_t j) const { return values_[static_cast<size_t>(j)]; }

 private:
  ScratchCharge charge_;
  std::vector<int64_t> values_;
};

// x viewed as [outer, axisLen, inner] around one axis.
struct AxisSplit {
  int64_t outer = 1, axisLen = 1, inner = 1;
};
AxisSplit splitAround(const Shape& shape, int64_t axis) {
  AxisSplit s;
  const size_t a = static_cast<size_t>(axis);
  s.outer = dimProduct(shape, 0, a);
  s.axisLen = a < shape.size() ? shape[a] : 1;
  s.inner = dimProduct(shape, a + 1, shape.size());
  return s;
}

// ---- gather -------------------------------------------------------------------

struct GatherState {
  AxisSplit x;
  int64_t numIndices = 0;
  int elemSize = 1;
};

void runGather(const GatherState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const char* x = static_cast<const char*>(ins[0].data);
  char* y = static_cast<char*>(outs[0].data);
  const size_t run = static_cast<size_t>(s.x.inner * s.elemSize);
  const CheckedIndices idx(ins[1], s.numIndices, s.x.axisLen);
  if (run == 0) return;  // nothing to copy (x's other dims may be huge): the indices are checked
  if (s.x.inner == 1) {
    // Along the last axis: one element per index, copied as a value rather than by a
    // library call each.
    auto elements = [&]<class E>(E) {
      const E* xe = reinterpret_cast<const E*>(x);
      E* ye = reinterpret_cast<E*>(y);
      for (int64_t o = 0; o < s.x.outer; ++o, xe += s.x.axisLen, ye += s.numIndices)
        for (int64_t j = 0; j < s.numIndices; ++j) ye[j] = xe[idx[j]];
    };
    switch (s.elemSize) {
      case 1: return elements(uint8_t{});
      case 2: return elements(uint16_t{});
      case 4: return elements(uint32_t{});
      case 8: return elements(uint64_t{});
      default: break;
    }
  }
  for (int64_t o = 0; o < s.x.outer; ++o)
    for (int64_t j = 0; j < s.numIndices; ++j) {
      if (run) copyBytes(y, x + (o * s.x.axisLen + idx[j]) * static_cast<int64_t>(run), run);
      y += run;
    }
}

// ---- gather_grad ----------------------------------------------------------------------

// dx viewed as [outer, size, inner] and g as [outer, numIndices, inner]: dx starts at
// zero and g's slab j is added at slab indices[j], j ascending, so each element's sum
// has one order whatever the thread count (a part is a run of `outer`, or with one
// outer slab a run of dx's elements). f16 sums in f32 (one rounding at the end).
struct GatherGradState {
  AxisSplit dx;
  int64_t numIndices = 0;
};

template <class T> void runGatherGrad(const GatherGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using A = ComputeOf<T>;
  const int64_t inner = s.dx.inner, size = s.dx.axisLen, n = s.numIndices;
  const CheckedIndices idx(ins[1], n, size);
  const int64_t slab = size * inner;
  if (slab == 0 || s.dx.outer == 0) return;  // no element to write (the other dims may be huge): the indices are checked
  const T* g = ins[0].as<const T>();
  T* dx = outs[0].as<T>();
  if constexpr (kIsHalf<T>) {
    // One outer slab at a time in an f32 accumulator.
    const ScratchCharge sums(slab, sizeof(A));
    std::vector<A> acc(static_cast<size_t>(slab));
    for (int64_t o = 0; o < s.dx.outer; ++o) {
      std::fill(acc.begin(), acc.end(), A(0));
      for (int64_t j = 0; j < n; ++j) {
        const T* src = g + (o * n + j) * inner;
        A* dst = acc.data() + idx[j] * inner;
        for (int64_t i = 0; i < inner; ++i) dst[i] += static_cast<A>(src[i]);
      }
      for (int64_t i = 0; i < slab; ++i) dx[o * slab + i] = static_cast<T>(acc[static_cast<size_t>(i)]);
    }
  } else {
    if (s.dx.outer > 1) {
      splitRows(s.dx.outer, slab + n * inner, [&](int64_t o0, int64_t o1) {
        for (int64_t o = o0; o < o1; ++o) {
          T* out = dx + o * slab;
          std::fill(out, out + slab, T(0));
          for (int64_t j = 0; j < n; ++j) {
            const T* src = g + (o * n + j) * inner;
            T* dst = out + idx[j] * inner;
            for (int64_t i = 0; i < inner; ++i) dst[i] += src[i];
          }
        }
      });
      return;
    }
    // One slab: each part owns the elements [b, e) that an elementwise op on dx gives
    // it (splitRange), and adds the part of every index's row that falls there, so the
    // update that reads dx next (an SGD step on an embedding table) finds its part in
    // its own core's cache.
    splitRange(slab, [&](int64_t b, int64_t e) {
      std::fill(dx + b, dx + e, T(0));
      for (int64_t j = 0; j < n; ++j) {
        const int64_t row = idx[j] * inner;
        const int64_t lo = std::max(b, row), hi = std::min(e, row + inner);
        const T* src = g + j * inner;
        for (int64_t i = lo; i < hi; ++i) dx[i] += src[i - row];
      }
    });
  }
}

// ---- scatter (ONNX ScatterElements) -------------------------------------------------

struct ScatterState {
  Shape indexShape;
  Shape xStrides;
  int64_t axis = 0, axisLen = 0, total = 0;
  int elemSize = 1;
};

void runScatter(const ScatterState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  char* y = static_cast<char*>(outs[0].data);
  if (outs[0].data != ins[0].data) copyBytes(y, ins[0].data, static_cast<size_t>(s.total * s.elemSize));
  const char* values = static_cast<const char*>(ins[2].data);
  const int64_t n = numElements(s.indexShape);
  const size_t rank = s.indexShape.size();
  std::vector<int64_t> pos(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t d = 0; d < rank; ++d)
      off += (static_cast<int64_t>(d) == s.axis ? checkedIndex(readIndex(ins[1], i), s.axisLen) : pos[d]) * s.xStrides[d];
    copyBytes(y + off * s.elemSize, values + i * s.elemSize, static_cast<size_t>(s.elemSize));
    for (size_t d = rank; d-- > 0;) {
      if (++pos[d] < s.indexShape[d]) break;
      pos[d] = 0;
    }
  }
}

// ---- dynamic_slice / dynamic_update ----------------------------------------------------

struct DynamicState {
  Shape shape;        // of x
  Shape xStrides;
  Shape sliceShape;
  std::vector<int64_t> axes, sizes;
  int elemSize = 1;
  bool update = false;
};

// The clamped start offset (elements) of the slice for this run's index tensor.
int64_t sliceOffset(const DynamicState& s, const TensorRef& index) {
  int64_t off = 0;
  for (size_t i = 0; i < s.axes.size(); ++i) {
    const int64_t a = s.axes[i];
    const int64_t start = std::clamp<int64_t>(readIndex(index, static_cast<int64_t>(i)), 0, s.shape[a] - s.sizes[i]);
    off += start * s.xStrides[a];
  }
  return off;
}

void runDynamic(const DynamicState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const int64_t off = numElements(s.sliceShape) == 0 ? 0 : sliceOffset(s, ins[1]);
  if (!s.update) {
    stridedCopy(outs[0].data, static_cast<const char*>(ins[0].data) + off * s.elemSize, s.sliceShape, s.xStrides,
                s.elemSize);
    return;
  }
  char* y = static_cast<char*>(outs[0].data);
  if (outs[0].data != ins[0].data) copyBytes(y, ins[0].data, static_cast<size_t>(numElements(s.shape) * s.elemSize));
  // Scatter the contiguous update into the strided slice, run by run.
  const char* u = static_cast<const char*>(ins[2].data);
  const int64_t n = numElements(s.sliceShape);
  if (n == 0) return;
  const size_t rank = s.sliceShape.size();
  const int64_t inner = rank ? s.sliceShape.back() : 1;
  std::vector<int64_t> pos(rank, 0);
  for (int64_t done = 0; done < n; done += inner) {
    int64_t o = off;
    for (size_t d = 0; d + 1 < rank; ++d) o += pos[d] * s.xStrides[d];
    copyBytes(y + o * s.elemSize, u + done * s.elemSize, static_cast<size_t>(inner * s.elemSize));
    for (size_t d = rank - (rank ? 1 : 0); d-- > 0;) {
      if (++pos[d] < s.sliceShape[d]) break;
      pos[d] = 0;
    }
  }
}

// ---- subsample --------------------------------------------------------------------

struct StridedState {
  Shape shape;
  std::vector<int64_t> strides;
  int elemSize = 1;
};

void runStrided(const StridedState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  stridedCopy(outs[0].data, ins[0].data, s.shape, s.strides, s.elemSize);
}

// ---- onehot -------------------------------------------------------------------------

// indices viewed as [outer, inner] split at `axis`; the result is [outer, classes, inner]
// (inner = 1 with the class axis last).
struct OneHotState {
  int64_t outer = 0, inner = 1, classes = 0;
  double off = 0, on = 1;
};

template <class T> void runOneHot(const OneHotState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  T* y = outs[0].as<T>();
  const T off = convertValue<T>(s.off), on = convertValue<T>(s.on);
  std::fill(y, y + s.outer * s.classes * s.inner, off);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < s.inner; ++j) {
      int64_t c = readIndex(ins[0], o * s.inner + j);
      if (c < 0 && c >= -s.classes) c += s.classes;
      if (c >= 0 && c < s.classes) y[(o * s.classes + c) * s.inner + j] = on;
    }
}

// ---- cumsum -------------------------------------------------------------------------

struct CumSumState {
  AxisSplit x;
  bool exclusive = false;  // each element left out of its own sum
  bool reverse = false;    // summed from the end of the axis
};

template <class T> void runCumSum(const CumSumState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  // Accumulate in f32 for f16, in uint32 for integers (wrapping), else in T.
  using A = std::conditional_t<kIsHalf<T>, float, std::conditional_t<kIsInt<T>, uint32_t, T>>;
  using Block = Eigen::Array<A, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int64_t len = s.x.axisLen, inner = s.x.inner;
  // Row `at(k)` is the k-th along the direction of summation.
  auto at = [&](int64_t k) { return s.reverse ? len - 1 - k : k; };
  if (inner == 1 && len > 0) {
    // Along contiguous rows: each row's running sum in a register, four rows at a time
    // so that their additions overlap (each row's sums are the same additions in the
    // same order: y[k] = y[k-1] + x[k] from y[0] = x[0]).
    const T* x = ins[0].as<const T>();
    T* y = outs[0].as<T>();
    splitRows(s.x.outer, len, [&](int64_t o0, int64_t o1) {
      constexpr int kRows = 4;
      for (int64_t o = o0; o < o1; o += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, o1 - o));
        A acc[kRows] = {};
        for (int64_t k = 0; k < len; ++k) {
          const int64_t i = at(k);
          for (int r = 0; r < rows; ++r) {
            const A v = static_cast<A>(x[(o + r) * len + i]);
            const A before = acc[r];
            acc[r] = k == 0 ? v : acc[r] + v;
            y[(o + r) * len + i] = static_cast<T>(s.exclusive ? (k == 0 ? A(0) : before) : acc[r]);
          }
        }
      }
    });
    return;
  }
  const ScratchCharge charge(len * inner, sizeof(A));  // one slice's accumulator
  Block b(len, inner);
  for (int64_t o = 0; o < s.x.outer; ++o) {
    const int64_t base = o * len * inner;
    b = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            ins[0].as<const T>() + base, len, inner).template cast<A>();
    for (int64_t k = 1; k < len; ++k) b.row(at(k)) += b.row(at(k - 1));
    if (s.exclusive && len > 0) {  // the inclusive sums moved one step on: row k gets row k-1's
      for (int64_t k = len - 1; k > 0; --k) b.row(at(k)) = b.row(at(k - 1));
      b.row(at(0)).setZero();
    }
    Eigen::Map<Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(outs[0].as<T>() + base, len, inner) =
        b.template cast<T>();
  }
}

// ---- topk ----------------------------------------------------------------------------

struct TopKState {
  AxisSplit x;
  int64_t k = 0;
  bool largest = true;
};

// Up to this k, topk keeps its k best in an ordered array over one pass (insertion);
// beyond it, a partial sort of the indices.
constexpr int64_t kTopKInsertionMax = 32;

// An element's rank as an integer, larger ranking first: the value's order (-0 and +0
// equal, NaN above +inf), reversed for the smallest (NaN then below everything).
template <class C> uint64_t rankKey(C v, bool largest) {
  uint64_t u;
  if constexpr (std::is_floating_point_v<C>) {
    if (v != v) {
      u = ~uint64_t{0};
    } else {
      const double d = v == 0 ? 0.0 : static_cast<double>(v);
      uint64_t b;
      std::memcpy(&b, &d, sizeof b);
      u = b >> 63 ? ~b : b | (uint64_t{1} << 63);
    }
  } else {
    u = static_cast<uint64_t>(static_cast<int64_t>(v)) ^ (uint64_t{1} << 63);
  }
  return largest ? u : ~u;
}

template <class T> void runTopK(const TopKState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const T* x = ins[0].as<const T>();
  T* values = outs[0].as<T>();
  int32_t* indices = outs[1].as<int32_t>();
  const int64_t len = s.x.axisLen, inner = s.x.inner, k = s.k;
  const ScratchCharge charge(len, sizeof(int64_t));
  std::vector<int64_t> order(static_cast<size_t>(len));
  for (int64_t o = 0; o < s.x.outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const T* line = x + o * len * inner + i;
      auto at = [&](int64_t j) { return static_cast<C>(line[j * inner]); };
      // Sorted; NaN counts as the largest; ties keep the lower index first.
      auto before = [&](int64_t a, int64_t b) {
        const C va = at(a), vb = at(b);
        const bool na = va != va, nb = vb != vb;
        if (na || nb) {
          if (na && nb) return a < b;
          return s.largest ? na : nb;
        }
        if (va != vb) return s.largest ? va > vb : va < vb;
        return a < b;
      };
      if (k <= kTopKInsertionMax) {
        // One pass with the k best so far in order of rank key: most elements lose to
        // the k-th at one integer comparison. Equal keys keep the lower index first (a
        // later element goes after them), so the k best and their order are `before`'s.
        uint64_t bestKey[kTopKInsertionMax];
        int64_t bestAt[kTopKInsertionMax];
        int64_t count = 0;
        C worst{};  // the k-th best's value once there are k (a NaN on either side compares false)
        for (int64_t j = 0; j < len && k > 0; ++j) {
          const C v = at(j);
          if (count == k && (s.largest ? v <= worst : v >= worst)) continue;  // no better than the k-th
          const uint64_t key = rankKey(v, s.largest);
          if (count == k && key <= bestKey[k - 1]) continue;
          int64_t p = count < k ? count++ : k - 1;
          for (; p > 0 && bestKey[p - 1] < key; --p) bestKey[p] = bestKey[p - 1], bestAt[p] = bestAt[p - 1];
          bestKey[p] = key;
          bestAt[p] = j;
          if (count == k) worst = at(bestAt[k - 1]);
        }
        std::copy(bestAt, bestAt + k, order.begin());
      } else {
        std::iota(order.begin(), order.end(), int64_t{0});
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      }
      for (int64_t j = 0; j < k; ++j) {
        const int64_t dst = o * k * inner + j * inner + i;
        values[dst] = line[order[j] * inner];
        indices[dst] = static_cast<int32_t>(order[j]);
      }
    }
}

}  // namespace

PreparedKernel prepareGather(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 2 || !isInteger(in[1].dtype)) throw KernelError("gather needs x and integer indices");
  const int64_t axis = resolveAxis(attrs::View<attrs::kernelFamily("Gather")>{op}.axis(), in[0].rank());
  return makeKernel<GatherState, runGather>(
      GatherState{splitAround(in[0].shape, axis), in[1].numElements(), dtypeSize(in[0].dtype)});
}

PreparedKernel prepareGatherGrad(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 2 || !isFloat(in[0].dtype) || !isInteger(in[1].dtype) || out.size() != 1)
    throw KernelError("gather_grad needs a float gradient and integer indices");
  const attrs::View<attrs::kernelFamily("GatherGrad")> a{op};
  const int64_t axis = resolveAxis(a.axis(), out[0].rank());
  GatherGradState s{splitAround(out[0].shape, axis), in[1].numElements()};
  if (s.dx.axisLen != a.size()) throw KernelError("gather_grad: the result's axis does not have `size` elements");
  return dispatchDType(in[0].dtype, [&]<class T>() -> PreparedKernel {
    if constexpr (kIsFloat<T>) return makeKernel<GatherGradState, runGatherGrad<T>>(s);
    else throw KernelError("gather_grad needs a float gradient");
  });
}

PreparedKernel prepareScatter(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 3 || !isInteger(in[1].dtype) || in[2].dtype != in[0].dtype || in[1].shape != in[2].shape ||
      in[1].rank() != in[0].rank())
    throw KernelError("scatter needs x, integer indices and values shaped like the indices");
  const int64_t axis = resolveAxis(attrs::View<attrs::kernelFamily("Scatter")>{op}.axis(), in[0].rank());
  for (int64_t d = 0; d < in[0].rank(); ++d)
    if (d != axis && in[1].shape[d] > in[0].shape[d])
      throw KernelError("scatter: indices " + in[1].str() + " exceed " + in[0].str() + " off the axis");
  ScatterState s{in[1].shape, contiguousStrides(in[0].shape), axis, in[0].rank() ? in[0].shape[axis] : 1,
                 in[0].numElements(), dtypeSize(in[0].dtype)};
  return makeKernel<ScatterState, runScatter>(std::move(s));
}

static PreparedKernel prepareDynamic(const Op& op, InTypes in, InTypes out, bool update) {
  DynamicState s;
  s.update = update;
  if (in.size() < (s.update ? 3u : 2u)) throw KernelError("dynamic slice/update: missing operands");
  s.shape = in[0].shape;
  s.xStrides = contiguousStrides(s.shape);
  s.sliceShape = s.shape;
  const attrs::View<attrs::kernelFamily("DynamicSlice") | attrs::kernelFamily("DynamicUpdate")> attr{op};
  s.sizes = attr.sizes();
  s.elemSize = dtypeSize(in[0].dtype);
  const std::vector<int64_t> axes = attr.axes();
  if (axes.size() != s.sizes.size() || in[1].numElements() != static_cast<int64_t>(axes.size()))
    throw KernelError("dynamic slice/update: axes, sizes and index differ in length");
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = resolveAxis(axes[i], in[0].rank());
    if (s.sizes[i] < 0 || s.sizes[i] > s.shape[a]) throw KernelError("dynamic slice/update: size exceeds the axis");
    s.axes.push_back(a);
    s.sliceShape[a] = s.sizes[i];
  }
  if (s.update && in[2].shape != s.sliceShape) throw KernelError("dynamic_update: the update must have the slice shape");
  return makeKernel<DynamicState, runDynamic>(std::move(s));
}

PreparedKernel prepareSubsample(const Op& op, InTypes in, InTypes out) {
  const std::vector<int64_t> strides = attrs::View<attrs::kernelFamily("Subsample")>{op}.strides();
  if (static_cast<int64_t>(strides.size()) != in[0].rank()) throw KernelError("subsample: one stride per axis");
  StridedState s;
  s.elemSize = dtypeSize(in[0].dtype);
  const Shape xs = contiguousStrides(in[0].shape);
  for (size_t d = 0; d < strides.size(); ++d) {
    if (strides[d] < 1) throw KernelError("subsample: strides must be >= 1");
    const int64_t count = stridedLength(in[0].shape[d], strides[d]);
    s.shape.push_back(count);
    s.strides.push_back(count > 1 ? xs[d] * strides[d] : 0);  // walked only between elements: fits
  }
  return makeKernel<StridedState, runStrided>(std::move(s));
}

PreparedKernel prepareOneHot(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || !isInteger(in[0].dtype)) throw KernelError("onehot needs integer indices");
  const attrs::View<attrs::kernelFamily("OneHot")> attr{op};
  const int64_t rank = in[0].rank();
  int64_t axis = attr.axis();
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) throw KernelError("onehot: axis " + std::to_string(attr.axis()) + " is out of range");
  OneHotState s{dimProduct(in[0].shape, 0, static_cast<size_t>(axis)),
                dimProduct(in[0].shape, static_cast<size_t>(axis), in[0].shape.size()), attr.num_classes(), 0, 1};
  if (const std::vector<double> v = attr.values(); v.size() == 2) {
    s.off = v[0];
    s.on = v[1];
  }
  const DType dt = out.empty() ? attr.dtype() : out[0].dtype;
  return dispatchDType(dt, [&]<class T>() { return makeKernel<OneHotState, runOneHot<T>>(s); });
}

PreparedKernel prepareCumSum(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || in[0].dtype == DType::Bool) {
    if (in.empty()) throw KernelError("cumsum needs an operand");
    unsupported(op, in[0]);
  }
  const attrs::View<attrs::kernelFamily("CumSum")> attr{op};
  const int64_t axis = resolveAxis(attr.axis(), in[0].rank());
  CumSumState s{splitAround(in[0].shape, axis), attr.exclusive(), attr.reverse()};
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return PreparedKernel{};
    else return makeKernel<CumSumState, runCumSum<T>>(s);
  });
}

PreparedKernel prepareTopK(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || in[0].dtype == DType::Bool) {
    if (in.empty()) throw KernelError("topk needs an operand");
    unsupported(op, in[0]);
  }
  const attrs::View<attrs::kernelFamily("TopK")> attr{op};
  const int64_t axis = resolveAxis(attr.axis(), in[0].rank());
  TopKState s{splitAround(in[0].shape, axis), attr.k(), attr.largest()};
  if (s.k < 0 || s.k > s.x.axisLen) throw KernelError("topk: k is out of range for the axis");
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return PreparedKernel{};
    else return makeKernel<TopKState, runTopK<T>>(s);
  });
}

PreparedKernel prepareDynamicSlice(const Op& op, InTypes in, InTypes out) { return prepareDynamic(op, in, out, false); }
PreparedKernel prepareDynamicUpdate(const Op& op, InTypes in, InTypes out) { return prepareDynamic(op, in, out, true); }

}  // namespace pir::vm::detail
