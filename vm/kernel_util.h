// Private helpers shared by the kernel families (vm/kernels_*.cpp): attribute
// access with ops.def defaults, the dtype switch, elementwise broadcast plans and
// the conversions every family needs. Not part of the VM's interface.
#pragma once
#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ir/checked_math.h"
#include "ir/infer.h"
#include "ir/op_attrs.h"
#include "vm/host_memory.h"
#include "vm/kernel_rows.h"
#include "vm/kernels.h"
#include "vm/simd_kernels.h"
#include "vm/tensor.h"

namespace pir::vm::detail {

// ---- attributes ------------------------------------------------------------

// Attributes are read through the typed accessors of ir/op_attrs.h, scoped to the
// ops.def rows a preparer serves: attrs::View<attrs::kernelFamily("Reduce")>{op}.
// An `axes` attribute resolved against `rank`: non-negative, sorted, unique
// (`all` is every axis).
std::vector<int64_t> resolveAxes(const attrs::AxesValue& axes, int64_t rank);
// One axis resolved against `rank` (negative counts from the end).
int64_t resolveAxis(int64_t axis, int64_t rank);

// Thrown at prepare time for a dtype/op combination without a kernel; the
// verifier should have rejected it, this keeps bad input from crashing.
[[noreturn]] void unsupported(const Op& op, const TensorType& t);

// ---- element types ---------------------------------------------------------

// The C++ element type of each dtype. f16 is Eigen::half: layout-compatible with
// the uint16_t IEEE half storage, arithmetic in f32 with rounding.
template <DType D> struct ElemOf;
template <> struct ElemOf<DType::Bool> { using type = bool; };
template <> struct ElemOf<DType::I8> { using type = int8_t; };
template <> struct ElemOf<DType::I16> { using type = int16_t; };
template <> struct ElemOf<DType::I32> { using type = int32_t; };
template <> struct ElemOf<DType::U8> { using type = uint8_t; };
template <> struct ElemOf<DType::U16> { using type = uint16_t; };
template <> struct ElemOf<DType::U32> { using type = uint32_t; };
template <> struct ElemOf<DType::F16> { using type = Eigen::half; };
template <> struct ElemOf<DType::F32> { using type = float; };
template <> struct ElemOf<DType::F64> { using type = double; };
static_assert(sizeof(Eigen::half) == 2 && sizeof(bool) == 1);

template <class T> inline constexpr bool kIsHalf = std::is_same_v<T, Eigen::half>;
template <class T> inline constexpr bool kIsFloat = kIsHalf<T> || std::is_floating_point_v<T>;
template <class T> inline constexpr bool kIsBool = std::is_same_v<T, bool>;
template <class T> inline constexpr bool kIsInt = std::is_integral_v<T> && !kIsBool<T>;
// Which element types an element function accepts (the verifier's rules,
// enforced again by the kernels so that a bad combination is an error, not a
// wrong instantiation).
enum ElementTypes : uint8_t { kFloats = 1, kInts = 2, kBools = 4, kNumbers = kFloats | kInts, kAll = kFloats | kInts | kBools };
template <class T> constexpr bool accepts(ElementTypes types) {
  if constexpr (kIsFloat<T>) return (types & kFloats) != 0;
  else if constexpr (kIsBool<T>) return (types & kBools) != 0;
  else return (types & kInts) != 0;
}
// The type arithmetic is done in: f16 computes in f32.
template <class T> using ComputeOf = std::conditional_t<kIsHalf<T>, float, T>;

// Calls f.template operator()<T>() with T the element type of `t`.
template <class F> decltype(auto) dispatchDType(DType t, F&& f) {
  switch (t) {
    case DType::Bool: return f.template operator()<bool>();
    case DType::I8: return f.template operator()<int8_t>();
    case DType::I16: return f.template operator()<int16_t>();
    case DType::I32: return f.template operator()<int32_t>();
    case DType::U8: return f.template operator()<uint8_t>();
    case DType::U16: return f.template operator()<uint16_t>();
    case DType::U32: return f.template operator()<uint32_t>();
    case DType::F16: return f.template operator()<Eigen::half>();
    case DType::F32: return f.template operator()<float>();
    case DType::F64: return f.template operator()<double>();
  }
  return f.template operator()<float>();  // unreachable: DType is closed
}

// Reads element `i` of a tensor of any dtype as a double (scalar operands such as
// scaled_add's `a`).
double readAsDouble(const TensorRef& t, int64_t i = 0);

// Converts one value to `To` (cast semantics): float→int truncates toward zero,
// NaN→0, out of range saturates; int→int saturates; anything→bool is `!= 0`;
// float→float rounds (IEEE, overflow gives ±inf).
template <class To, class From> inline To convertValue(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (kIsBool<To>) {
    return static_cast<double>(static_cast<ComputeOf<From>>(v)) != 0.0;  // NaN != 0: true
  } else if constexpr (kIsBool<From>) {
    return To(v ? 1 : 0);
  } else if constexpr (kIsFloat<To>) {
    if constexpr (kIsHalf<To>) return Eigen::half(static_cast<float>(static_cast<ComputeOf<From>>(v)));
    else return static_cast<To>(static_cast<ComputeOf<From>>(v));
  } else if constexpr (kIsFloat<From> && sizeof(To) <= 4) {  // float → int whose bounds are exact in double
    // Branch-free (cast loops vectorise): clamp, then the cast truncates; NaN → 0.
    constexpr double lo = static_cast<double>(std::numeric_limits<To>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<To>::max());
    double d = static_cast<double>(static_cast<ComputeOf<From>>(v));
    d = d < lo ? lo : d;
    d = d > hi ? hi : d;
    return d == d ? static_cast<To>(d) : To(0);
  } else if constexpr (kIsFloat<From>) {  // float → 64-bit int
    const double d = static_cast<double>(static_cast<ComputeOf<From>>(v));
    if (std::isnan(d)) return To(0);
    const double t = std::trunc(d);
    if (t <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (t >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(t);
  } else {  // int → int, saturating (all our ints fit in int64)
    const int64_t w = static_cast<int64_t>(v);
    if (w < static_cast<int64_t>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (w > static_cast<int64_t>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(w);
  }
}

template <class T> using Vec = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T> using VecMap = Eigen::Map<Vec<T>>;
template <class T> using CVecMap = Eigen::Map<const Vec<T>>;
template <class T> using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// ---- sizes and scratch -----------------------------------------------------

// The number of elements of dims [begin, end) of `shape`: 0 when any dim of the
// whole shape is 0 (an empty tensor has no elements in any sub-block, however
// large its other dims: [2^62, 4, 0] splits into 0 blocks, never 2^64 wrapped to
// 0 or a loop over 2^62 empty ones), else the exact product (it divides the
// element count, which fits).
inline int64_t dimProduct(const Shape& shape, size_t begin, size_t end) {
  for (int64_t d : shape)
    if (d == 0) return 0;
  int64_t n = 1;
  for (size_t d = begin; d < end && d < shape.size(); ++d) n = checkedMul(n, shape[d]).value_or(INT64_MAX);
  return n;
}

// layer_norm's and layer_norm_grad's row length: the product of x's dims from
// `axis` (negative counts from the end), the normalised dims flattened; the rows are
// the dims before it. The exact product, also when an outer dim is 0 (no rows).
inline int64_t layerNormCols(const Op& op, const TensorType& x, int64_t axis) {
  const int64_t rank = x.rank();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) unsupported(op, x);
  return numElements(Shape(x.shape.begin() + axis, x.shape.end()));
}

// Kernel scratch (reordered copies, sort orders, per-slice accumulators) is
// host memory like any tensor: a ScratchCharge charges `bytes` to the
// host-memory budget for its lifetime (throwing HostMemoryExhausted, charging
// nothing, when over), so a kernel's temporaries cannot exceed --max-memory.
// Taken once per call, before the temporaries are made.
class ScratchCharge {
 public:
  explicit ScratchCharge(uint64_t bytes) : bytes_(bytes) {
    if (bytes_) chargeHostMemory(bytes_);
  }
  ScratchCharge(uint64_t count, uint64_t elemSize) : ScratchCharge(saturatingMul(count, elemSize)) {}
  ~ScratchCharge() {
    if (bytes_) releaseHostMemory(bytes_);
  }
  ScratchCharge(const ScratchCharge&) = delete;
  ScratchCharge& operator=(const ScratchCharge&) = delete;

 private:
  uint64_t bytes_;
};

// ---- threads ---------------------------------------------------------------

// Elements per thread below which an elementwise loop is not split (a split
// costs a few microseconds of wake-up).
inline constexpr int64_t kMinElementsPerThread = 8 * 1024;

// Whether a part of a split could not allocate its scratch: a helper thread cannot
// throw, so the caller throws after the split.
class PartFailures {
 public:
  void fail() { failed_.store(true, std::memory_order_relaxed); }
  void throwIfAnyFailed() const {
    if (failed_.load(std::memory_order_relaxed)) throw std::bad_alloc();
  }

 private:
  std::atomic<bool> failed_{false};
};

// body(begin, end) over [0, n): one call on this thread unless kernel threads
// are enabled and n is large (simd::parallelFor). No allocation on the
// common path, so small ops keep their dispatch cost.
template <class Body> inline void splitRange(int64_t n, Body&& body) {
  if (n < 2 * kMinElementsPerThread || simd::kernelThreads() <= 1) {
    if (n > 0) body(int64_t{0}, n);
    return;
  }
  simd::parallelFor(n, kMinElementsPerThread, body);
}

// A tensor's bytes copied as an elementwise op would write them: a large copy splits
// into one contiguous part per kernel thread (the chunks of splitRange over its f32
// elements), so that the ops after it find their part of the copy in their own core's
// cache instead of every line crossing from the core that copied it.
inline void copyTensorBytes(void* dst, const void* src, size_t bytes) {
  constexpr int64_t kMinBytesPerThread = kMinElementsPerThread * 4;
  const int64_t n = static_cast<int64_t>(bytes);
  if (n < 2 * kMinBytesPerThread || simd::kernelThreads() <= 1) return copyBytes(dst, src, bytes);
  simd::parallelFor(n, kMinBytesPerThread, [&](int64_t begin, int64_t end) {
    copyBytes(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, static_cast<size_t>(end - begin));
  });
}

// The parts splitRows cuts `rows` rows of `rowElements` elements into (1: no split).
inline int64_t rowParts(int64_t rows, int64_t rowElements) {
  const int64_t elements = rows > 0 && rowElements > 0 && rows <= INT64_MAX / rowElements ? rows * rowElements : 0;
  if (elements < 2 * kMinElementsPerThread || rows < 2 || simd::kernelThreads() <= 1) return 1;
  const int64_t minRows = std::max<int64_t>(1, kMinElementsPerThread / rowElements);
  return std::max<int64_t>(1, std::min<int64_t>(simd::kernelThreads(), rows / minRows));
}
// body(part, firstRow, endRow) over [0, rows) in `parts` contiguous runs, part j on
// thread j of the split (parts at most the kernel threads); for callers that give
// each part memory of its own, reserved before the split.
template <class Body> inline void splitRowsInParts(int64_t rows, int64_t parts, Body&& body) {
  if (rows <= 0) return;
  if (parts <= 1) return body(int64_t{0}, int64_t{0}, rows);
  simd::parallelTasks(parts, [&](int64_t j) { body(j, j * rows / parts, (j + 1) * rows / parts); });
}
// body(firstRow, endRow) over [0, rows) for kernels whose rows (of `rowElements`
// each) are independent: one call on this thread unless the whole is large, then
// a contiguous run of rows per thread. A row is computed by the same operations
// whichever part it falls in, so the bits do not depend on the thread count. The
// body must not throw or charge memory (charge for every part before the split).
template <class Body> inline void splitRows(int64_t rows, int64_t rowElements, Body&& body) {
  splitRowsInParts(rows, rowParts(rows, rowElements), [&](int64_t, int64_t first, int64_t end) { body(first, end); });
}

// body(firstColumn, endColumn) over [0, cols) for sums whose columns are independent
// (a reduction over rows): one call on this thread unless the `elements` read are
// many, then a contiguous run of at least kMinSplitColumns columns per thread, bounds
// on multiples of 16 (whole vectors, whole lines of f32). Each part reads a run of
// every row, rows that a row split before it left in both cores' caches: split into
// runs of 64 f32, a bias gradient over [512, 128] takes longer than on one thread
// (7.8 against 5.3 us); runs of 256 gain (f32[512, 512]: 20 against 33 us). The body
// must not throw or charge memory.
inline constexpr int64_t kMinSplitColumns = 256;
template <class Body> inline void splitColumns(int64_t elements, int64_t cols, Body&& body) {
  const int64_t parts = std::min<int64_t>(simd::kernelThreads(), cols / kMinSplitColumns);
  if (elements < 2 * kMinElementsPerThread || parts <= 1) {
    if (cols > 0) body(int64_t{0}, cols);
    return;
  }
  simd::parallelTasks(parts, [&](int64_t j) {
    const int64_t c0 = j * cols / parts / 16 * 16, c1 = j + 1 == parts ? cols : (j + 1) * cols / parts / 16 * 16;
    if (c1 > c0) body(c0, c1);
  });
}

// ---- PreparedKernel construction -------------------------------------------

// Wraps `Fn(const State&, ins, outs, ctx)` and its state into a PreparedKernel.
template <class State, auto Fn> PreparedKernel makeKernel(State state) {
  PreparedKernel k;
  k.state = std::make_shared<const State>(std::move(state));
  k.fn = [](const void* s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
    Fn(*static_cast<const State*>(s), ins, outs, ctx);
  };
  return k;
}

// A kernel that does nothing: for results with no elements.
PreparedKernel nothingToWrite();

// ---- elementwise broadcasting ----------------------------------------------

// How N inputs broadcast (NumPy rules) to an output shape, precomputed. Shapes
// are coalesced: size-1 output dims dropped, adjacent dims merged where every
// input is contiguous (or broadcast) across them. The innermost dim is a run
// that every input reads either contiguously or as one repeated element.
struct BroadcastPlan {
  int64_t total = 0;     // output elements
  bool flat = false;     // every input has the output's element count: one run of `total`
  int64_t inner = 1;     // length of the innermost run
  Shape outer;           // coalesced outer dims (may be empty: a single run)
  std::vector<std::vector<int64_t>> outerStrides;  // per input, per outer dim (elements)
  std::vector<uint8_t> innerBroadcast;             // per input: the run repeats one element
};
BroadcastPlan planBroadcast(std::span<const Shape> inputs, const Shape& out);

// Calls row(inOffsets, outOffset, n) for each innermost run in [firstRun, endRun)
// (all runs by default), in output order.
template <class RowFn>
void forEachRun(const BroadcastPlan& p, RowFn&& row, int64_t firstRun = 0, int64_t endRun = INT64_MAX) {
  const size_t nin = p.outerStrides.size();
  int64_t offs[8] = {0};
  if (p.total == 0) return;
  if (p.outer.empty()) {
    if (firstRun == 0 && endRun > 0) row(offs, int64_t{0}, p.inner);
    return;
  }
  const size_t rank = p.outer.size();
  int64_t idx[16] = {0};
  const int64_t runs = std::min(endRun, p.total / p.inner);
  for (int64_t d = static_cast<int64_t>(rank) - 1, rest = firstRun; d >= 0 && rest > 0; --d) {  // run firstRun's index
    idx[d] = rest % p.outer[static_cast<size_t>(d)];
    rest /= p.outer[static_cast<size_t>(d)];
    for (size_t k = 0; k < nin; ++k) offs[k] += idx[d] * p.outerStrides[k][static_cast<size_t>(d)];
  }
  int64_t outOff = firstRun * p.inner;
  for (int64_t r = firstRun; r < runs; ++r) {
    row(offs, outOff, p.inner);
    outOff += p.inner;
    // Odometer increment over the outer dims, updating offsets incrementally.
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < p.outer[d]) {
        for (size_t k = 0; k < nin; ++k) offs[k] += p.outerStrides[k][d];
        break;
      }
      idx[d] = 0;
      for (size_t k = 0; k < nin; ++k) offs[k] -= p.outerStrides[k][d] * (p.outer[d] - 1);
    }
  }
}
// forEachRun with the runs split over the kernel threads when the output is large (a
// contiguous run of runs per thread, as splitRows): `row` must only write its run's
// output, and must not throw or charge memory.
template <class RowFn> void forEachRunSplit(const BroadcastPlan& p, RowFn&& row) {
  if (p.total == 0) return;
  if (p.outer.empty()) return forEachRun(p, row);
  splitRows(p.total / p.inner, p.inner, [&](int64_t first, int64_t end) { forEachRun(p, row, first, end); });
}
inline constexpr size_t kMaxBroadcastInputs = 8;
inline constexpr size_t kMaxCoalescedRank = 16;

// A run of one input: contiguous (a Map) or one repeated element (a Constant).
template <class T> struct RunIn {
  const T* p;
  bool repeated;
};

// Calls f(n, e0, e1, ...) with each RunIn as an Eigen array expression of
// length n: a Map when contiguous, a Constant when repeated, so that the math is
// one Eigen expression either way.
template <size_t I = 0, class F, class Tuple, class... Exprs>
inline void withRunExprs(F& f, int64_t n, const Tuple& ins, const Exprs&... exprs) {
  if constexpr (I == std::tuple_size_v<Tuple>) {
    f(n, exprs...);
  } else {
    const auto& in = std::get<I>(ins);
    using T = std::remove_cvref_t<decltype(*in.p)>;
    if (in.repeated) withRunExprs<I + 1>(f, n, ins, exprs..., Vec<T>::Constant(n, *in.p));
    else withRunExprs<I + 1>(f, n, ins, exprs..., CVecMap<T>(in.p, n));
  }
}

// ---- strided copies (shape ops) --------------------------------------------

// Copies an N-d strided view of `src` (shape `shape`, element strides
// `srcStrides`, may be 0 or negative) into contiguous `dst`, `elemSize` bytes each.
void stridedCopy(void* dst, const void* src, const Shape& shape, std::span<const int64_t> srcStrides,
                 int elemSize);
Shape contiguousStrides(const Shape& shape);

// ---- family preparers (one per kernel family of ops.def) -------------------
using InTypes = std::span<const TensorType>;
using Preparer = PreparedKernel (*)(const Op&, InTypes, InTypes);

// A family whose rows name an element function (`Unary(Abs)`) keeps its
// functions as the member types of one struct `Fns`, which also has
// `static constexpr std::string_view family` (its Kernel column name) and
// `template <class Fn> static PreparedKernel prepare(const Op&, InTypes, InTypes)`.
// kBoundPreparers<Fns> is its preparer of each row by OpCode, bound at compile
// time (vm/kernel_rows.h); prepareBound<Fns> runs the op's.
template <class Fns> struct PreparerRows {
  static constexpr std::string_view name = Fns::family;
  using Functions = Fns;
  static constexpr Preparer kNone = nullptr;
  template <class Fn> static constexpr Preparer bind() { return &Fns::template prepare<Fn>; }
};
template <class Fns> inline constexpr auto kBoundPreparers = bindRows<PreparerRows<Fns>>();
template <class Fns> PreparedKernel prepareBound(const Op& op, InTypes in, InTypes out) {
  const Preparer prepare = kBoundPreparers<Fns>[static_cast<size_t>(op.code)];
  if (!prepare) throw KernelError("'" + std::string(op.info().name) + "' is not of the " + std::string(Fns::family) + " family");
  return prepare(op, in, out);
}

PreparedKernel prepareUnary(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareCast(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareCopy(const Op& op, InTypes in, InTypes out);
// True when `code`'s kernel is a plain copy (the Copy family: identity, detach,
// reshape, ...).
bool isPlainCopy(OpCode code);
PreparedKernel prepareBinary(const Op& op, InTypes in, InTypes out);
// True when `code` is a Binary row whose element function divides integers (div,
// fmod): on integer operands it throws on a zero divisor.
bool dividesIntegers(OpCode code);
PreparedKernel prepareWhere(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareScaledAdd(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareReduce(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareArgReduce(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareSoftmax(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareSoftmaxGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareMatMul(const Op& op, InTypes in, InTypes out);
// independentLeadingDims (vm/kernels.h) of these families.
int64_t matMulIndependentDims(const Op& op, InTypes in, InTypes out);
int64_t softmaxIndependentDims(const Op& op, InTypes in, InTypes out);
int64_t softmaxGradIndependentDims(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareMatMulScaledAdd(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareTranspose(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareBroadcast(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareConcat(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareSplit(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareSlice(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareInit(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareVarUpdate(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareGather(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareGatherGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareScatter(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareDynamicSlice(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareDynamicUpdate(const Op& op, InTypes in, InTypes out);  // dynamic_update(_)
PreparedKernel prepareSubsample(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareOneHot(const Op& op, InTypes in, InTypes out);
// vm/kernels_layout.cpp
PreparedKernel preparePad(const Op& op, InTypes in, InTypes out);
PreparedKernel preparePadGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareTile(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareTrilu(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareHardmax(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareGatherElements(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareScatterElements(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareRange(const Op& op, InTypes in, InTypes out);
// vm/kernels_resize_op.cpp, vm/kernels_lrn.cpp, vm/kernels_einsum.cpp
PreparedKernel prepareResize(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareResizeGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareLrn(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareLrnGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareEinsum(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareCumSum(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareTopK(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareNorm(const Op& op, InTypes in, InTypes out);  // layer/group/batch norm
PreparedKernel prepareNllLoss(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareConv(const Op& op, InTypes in, InTypes out);
// conv and conv_transpose with their optional bias (vm/kernels_conv_bias.cpp): the op's kernel, then the bias added.
PreparedKernel prepareConvBias(const Op& op, InTypes in, InTypes out);
PreparedKernel preparePool(const Op& op, InTypes in, InTypes out);  // average_pool, max_pool
PreparedKernel prepareLayerNormGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareGroupNormGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareConvGradInput(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareConvGradWeight(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareMaxPoolGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareAveragePoolGrad(const Op& op, InTypes in, InTypes out);
PreparedKernel prepareRandom(const Op& op, InTypes in, InTypes out);  // random_*, dropout, split_random_seed

}  // namespace pir::vm::detail
