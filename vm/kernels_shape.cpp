// Shape kernels: transpose (and transpose_), broadcast, concat, split, slice,
// init. They only move bytes, so they are instantiated per element size, not
// per dtype; the index arithmetic (strides, offsets, clamped slice bounds) is
// all done at prepare time.
#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm::detail {
namespace {

// A strided view of operand 0 copied into the contiguous result.
struct ViewState {
  Shape shape;                   // of the result
  std::vector<int64_t> strides;  // operand element strides per result dim
  int64_t offset = 0;            // operand element offset of the first result element
  int elemSize = 1;
  int64_t total = 0;             // elements of operand 0 (what transpose_ saves before it writes)
};

void runView(const ViewState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const char* src = static_cast<const char*>(ins[0].data) + s.offset * s.elemSize;
  std::vector<char> scratch;
  std::optional<ScratchCharge> charge;
  if (outs[0].data == ins[0].data && s.total > 0) {  // transpose_: the view overwrites its source
    charge.emplace(s.total, s.elemSize);
    scratch.assign(static_cast<const char*>(ins[0].data), static_cast<const char*>(ins[0].data) + s.total * s.elemSize);
    src = scratch.data() + s.offset * s.elemSize;
  }
  // Large views split along the result's first dim (each part a view of its own).
  const int64_t first = s.shape.empty() ? 1 : s.shape[0];
  const int64_t perFirst = first > 0 ? numElements(s.shape) / first : 0;  // the result exists: no overflow
  splitRows(first, perFirst, [&](int64_t r0, int64_t r1) {
    if (r0 == 0 && r1 == first) return stridedCopy(outs[0].data, src, s.shape, s.strides, s.elemSize);
    Shape part = s.shape;
    part[0] = r1 - r0;
    stridedCopy(static_cast<char*>(outs[0].data) + r0 * perFirst * s.elemSize, src + r0 * s.strides[0] * s.elemSize,
                part, s.strides, s.elemSize);
  });
}

// A view that is a batch of 2-D transposes: result [batch, cols, rows] read
// from a contiguous source [batch, rows, cols]. Copied in cache blocks by the
// per-ISA loop instead of element by element with a stride.
struct TransposeState {
  int64_t batch = 1, rows = 0, cols = 0;
  int elemSize = 1;
  int64_t total = 0;
};

void runTranspose(const TransposeState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const char* src = static_cast<const char*>(ins[0].data);
  std::vector<char> scratch;
  std::optional<ScratchCharge> charge;
  if (outs[0].data == ins[0].data && s.total > 0) {  // transpose_: the result overwrites its source
    charge.emplace(s.total, s.elemSize);
    scratch.assign(src, src + s.total * s.elemSize);
    src = scratch.data();
  }
  const auto fn = simd::table().transpose[s.elemSize == 1 ? 0 : s.elemSize == 2 ? 1 : s.elemSize == 4 ? 2 : 3];
  const int64_t step = s.rows * s.cols * s.elemSize;
  splitRows(s.batch, s.rows * s.cols, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) fn(src + b * step, static_cast<char*>(outs[0].data) + b * step, s.rows, s.cols);
  });
}

// The view, or a blocked transpose when the view (size-1 dims dropped, dims
// walked uniformly merged) is [cols, rows] with source strides [1, cols], or
// that behind one batch dim.
PreparedKernel viewKernel(ViewState s) {
  if (numElements(s.shape) == 0) return nothingToWrite();  // its dims may not even multiply
  Shape dims;
  std::vector<int64_t> strides;
  for (size_t d = 0; d < s.shape.size(); ++d) {
    if (s.shape[d] == 1) continue;
    if (!dims.empty() && strides.back() == s.strides[d] * s.shape[d]) {
      dims.back() *= s.shape[d];
      strides.back() = s.strides[d];
    } else {
      dims.push_back(s.shape[d]);
      strides.push_back(s.strides[d]);
    }
  }
  const size_t r = dims.size();
  const bool sized = s.elemSize == 1 || s.elemSize == 2 || s.elemSize == 4 || s.elemSize == 8;
  if (sized && s.offset == 0 && (r == 2 || r == 3) && strides[r - 2] == 1 && strides[r - 1] == dims[r - 2] &&
      (r == 2 || strides[0] == dims[1] * dims[2])) {
    TransposeState t;
    t.batch = r == 3 ? dims[0] : 1;
    t.cols = dims[r - 2];
    t.rows = dims[r - 1];
    t.elemSize = s.elemSize;
    t.total = s.total;
    return makeKernel<TransposeState, runTranspose>(t);
  }
  return makeKernel<ViewState, runView>(std::move(s));
}

// Concat / split: both walk `outer` blocks; within a block, part p occupies
// `partBytes[p]` contiguous bytes of the whole tensor's block.
struct PartsState {
  int64_t outer = 0;
  std::vector<int64_t> partBytes;   // bytes per outer block of each part
};

void runConcat(const PartsState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  char* dst = static_cast<char*>(outs[0].data);
  for (int64_t o = 0; o < s.outer; ++o)
    for (size_t p = 0; p < s.partBytes.size(); ++p) {
      const int64_t n = s.partBytes[p];
      if (n) copyBytes(dst, static_cast<const char*>(ins[p].data) + o * n, static_cast<size_t>(n));
      dst += n;
    }
}

void runSplit(const PartsState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const char* src = static_cast<const char*>(ins[0].data);
  for (int64_t o = 0; o < s.outer; ++o)
    for (size_t p = 0; p < s.partBytes.size(); ++p) {
      const int64_t n = s.partBytes[p];
      if (n) copyBytes(static_cast<char*>(outs[p].data) + o * n, src, static_cast<size_t>(n));
      src += n;
    }
}

struct FillState {
  int64_t bytes = 0;
};

void runZero(const FillState& s, const TensorRef*, TensorRef* outs, KernelContext&) {
  if (s.bytes) std::memset(outs[0].data, 0, static_cast<size_t>(s.bytes));
}

PartsState planParts(std::span<const TensorType> parts, const TensorType& whole, int64_t axis) {
  PartsState s;
  const int64_t size = dtypeSize(whole.dtype);
  s.outer = dimProduct(whole.shape, 0, static_cast<size_t>(axis));
  const int64_t inner = dimProduct(whole.shape, static_cast<size_t>(axis) + 1, whole.shape.size());
  int64_t sum = 0;
  for (const TensorType& t : parts) {
    if (t.dtype != whole.dtype || t.rank() != whole.rank())
      throw KernelError("concat/split parts must match the whole tensor's dtype and rank");
    for (int64_t d = 0; d < whole.rank(); ++d)
      if (d != axis && t.shape[d] != whole.shape[d]) throw KernelError("concat/split parts differ off the axis");
    s.partBytes.push_back(t.shape[axis] * inner * size);
    sum += t.shape[axis];
  }
  if (sum != whole.shape[axis]) throw KernelError("concat/split sizes do not add up");
  return s;
}

}  // namespace

PreparedKernel prepareTranspose(const Op& op, InTypes in, InTypes out) {
  const TensorType& t = in[0];
  const std::vector<int64_t> perm = transposePermutation(op, t.rank());
  if (!out.empty() && out[0].numElements() != t.numElements()) throw KernelError("transpose: result size differs");
  const Shape inStrides = contiguousStrides(t.shape);
  ViewState s;
  s.elemSize = dtypeSize(t.dtype);
  s.total = t.numElements();
  for (int64_t p : perm) {
    s.shape.push_back(t.shape[p]);
    s.strides.push_back(inStrides[p]);
  }
  return viewKernel(std::move(s));
}

PreparedKernel prepareBroadcast(const Op& op, InTypes in, InTypes out) {
  const TensorType& t = in[0];
  const Shape target = out.empty() ? attrs::View<attrs::kernelFamily("Broadcast")>{op}.shape() : out[0].shape;
  if (target.size() < t.shape.size()) throw KernelError("broadcast: " + t.str() + " does not broadcast to " + shapeToString(target));
  const Shape inStrides = contiguousStrides(t.shape);
  ViewState s;
  s.elemSize = dtypeSize(t.dtype);
  s.shape = target;
  s.total = t.numElements();
  const size_t lead = target.size() - t.shape.size();
  for (size_t d = 0; d < target.size(); ++d) {
    if (d < lead) {
      s.strides.push_back(0);
      continue;
    }
    const int64_t dim = t.shape[d - lead];
    if (dim != 1 && dim != target[d])
      throw KernelError("broadcast: " + t.str() + " does not broadcast to " + shapeToString(target));
    s.strides.push_back(dim == 1 ? 0 : inStrides[d - lead]);
  }
  return viewKernel(std::move(s));
}

PreparedKernel prepareSlice(const Op& op, InTypes in, InTypes out) {
  const TensorType& t = in[0];
  const int64_t rank = t.rank();
  const attrs::View<attrs::kernelFamily("Slice")> attr{op};
  const std::vector<int64_t> start = attr.start(), stop = attr.stop();
  std::vector<int64_t> step = attr.step().value_or(std::vector<int64_t>{}), axes = attr.axes().value_or(std::vector<int64_t>{});
  if (step.empty()) step.assign(start.size(), 1);
  if (axes.empty())
    for (size_t i = 0; i < start.size(); ++i) axes.push_back(static_cast<int64_t>(i));  // leading axes
  if (stop.size() != start.size() || step.size() != start.size() || axes.size() != start.size())
    throw KernelError("slice: start, stop, step and axes differ in length");
  const Shape inStrides = contiguousStrides(t.shape);
  ViewState s;
  s.elemSize = dtypeSize(t.dtype);
  s.shape = t.shape;
  s.strides = inStrides;
  s.total = t.numElements();
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t axis = resolveAxis(axes[i], rank);
    const int64_t dim = t.shape[axis], st = step[i];
    if (st == 0) throw KernelError("slice: step is 0");
    const SliceRange range = sliceRange(dim, start[i], stop[i], st);
    s.shape[axis] = range.count;
    if (range.count > 0) s.offset += range.begin * inStrides[axis];
    // A stride is only walked between elements: with fewer than two it is never
    // used (and st * stride may not fit); with two or more, |st| * (count - 1)
    // is within the axis, so the product fits.
    s.strides[axis] = range.count > 1 ? inStrides[axis] * st : 0;
  }
  if (!out.empty() && out[0].shape != s.shape)
    throw KernelError("slice: result " + out[0].str() + " does not match " + shapeToString(s.shape));
  if (numElements(s.shape) == 0) s.offset = 0;
  return viewKernel(std::move(s));
}

PreparedKernel prepareConcat(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || out.empty()) throw KernelError("concat needs operands");
  const int64_t axis = resolveAxis(attrs::View<attrs::kernelFamily("Concat")>{op}.axis(), out[0].rank());
  return makeKernel<PartsState, runConcat>(planParts(in, out[0], axis));
}

PreparedKernel prepareSplit(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || out.empty()) throw KernelError("split needs an operand and results");
  const int64_t axis = resolveAxis(attrs::View<attrs::kernelFamily("Split")>{op}.axis(), in[0].rank());
  return makeKernel<PartsState, runSplit>(planParts(out, in[0], axis));
}

PreparedKernel prepareInit(const Op& op, InTypes in, InTypes out) {
  // kind = undef is zero-filled as well: deterministic runs.
  TensorType t;
  if (!out.empty()) t = out[0];
  else {
    const attrs::View<attrs::kernelFamily("Init")> attr{op};
    t = TensorType{attr.dtype(), attr.shape()};
  }
  return makeKernel<FillState, runZero>(FillState{t.numElements() * dtypeSize(t.dtype)});
}

}  // namespace pir::vm::detail

// ---- views (F_VIEW ops: reshape_, transpose_; see docs/decisions.md "Views") ----

namespace pir::vm {

std::vector<int64_t> transposePermutation(const Op& op, int64_t rank) {
  const std::string name(op.info().name);
  std::vector<int64_t> perm = attrs::View<attrs::kernelFamily("Transpose")>{op}.perm().value_or(std::vector<int64_t>{});
  if (perm.empty())
    for (int64_t d = rank; d-- > 0;) perm.push_back(d);  // default: reversed
  if (static_cast<int64_t>(perm.size()) != rank) throw KernelError(name + ": perm does not match the rank");
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t& p : perm) {
    p = detail::resolveAxis(p, rank);
    if (seen[static_cast<size_t>(p)]) throw KernelError(name + ": perm repeats an axis");
    seen[static_cast<size_t>(p)] = true;
  }
  return perm;
}

namespace {
// Per row: whether its kernel is a Transpose (an F_VIEW row of it permutes axes;
// any other F_VIEW row, reshape_, keeps the flat order).
struct TransposeRows {
  static constexpr std::string_view name = "Transpose";
  struct Functions {
    using Transpose = void;
  };
  static constexpr bool kNone = false;
  template <class> static constexpr bool bind() { return true; }
};
constexpr auto kTransposes = bindRows<TransposeRows>();
}  // namespace

std::vector<int64_t> viewPermutation(const Op& op, const TensorType& operand) {
  if (!op.info().has(F_VIEW))
    throw KernelError("'" + std::string(op.info().name) + "' is not a view");
  std::vector<int64_t> perm;
  if (!kTransposes[static_cast<size_t>(op.code)]) return perm;  // same elements in the same flat order
  perm = transposePermutation(op, operand.rank());
  // Moving only size-1 axes keeps the flat order: the view is the operand's bytes.
  int64_t last = -1;
  bool keepsOrder = true;
  for (int64_t p : perm) {
    if (operand.shape[static_cast<size_t>(p)] == 1) continue;
    keepsOrder = keepsOrder && p > last;
    last = p;
  }
  if (keepsOrder) perm.clear();
  return perm;
}

PreparedKernel preparePermutedCopy(const TensorType& in, std::span<const int64_t> perm) {
  if (static_cast<int64_t>(perm.size()) != in.rank()) throw KernelError("permuted copy: perm does not match the rank");
  const Shape inStrides = detail::contiguousStrides(in.shape);
  detail::ViewState s;
  s.elemSize = dtypeSize(in.dtype);
  s.total = in.numElements();
  for (int64_t p : perm) {
    s.shape.push_back(in.shape[static_cast<size_t>(p)]);
    s.strides.push_back(inStrides[static_cast<size_t>(p)]);
  }
  return detail::viewKernel(std::move(s));
}

}  // namespace pir::vm
