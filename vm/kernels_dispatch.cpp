// prepareKernel: the op → preparer table of ops.def's Kernel column,
// plus the helpers shared by all families (attributes, broadcast plans,
// strided copies).
#include <array>
#include <string_view>

#include "vm/kernel_rows.h"
#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm {
namespace detail {

// ---- attributes ------------------------------------------------------------

int64_t resolveAxis(int64_t axis, int64_t rank) {
  const int64_t r = axis < 0 ? axis + rank : axis;
  if (r < 0 || r >= std::max<int64_t>(rank, 1))
    throw KernelError("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return r;
}

std::vector<int64_t> resolveAxes(const attrs::AxesValue& written, int64_t rank) {
  std::vector<int64_t> axes;
  if (written.all) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    return axes;
  }
  for (int64_t x : written.axes) axes.push_back(resolveAxis(x, rank));
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

void unsupported(const Op& op, const TensorType& t) {
  throw KernelError("no kernel for '" + std::string(op.info().name) + "' on " + t.str());
}

double readAsDouble(const TensorRef& t, int64_t i) {
  return dispatchDType(t.type->dtype, [&]<class T>() -> double {
    return static_cast<double>(static_cast<ComputeOf<T>>(t.as<const T>()[i]));
  });
}

// ---- broadcast plans -------------------------------------------------------

Shape contiguousStrides(const Shape& shape) {
  // Saturating: only an empty tensor's dims can multiply beyond int64 (its
  // strides are never walked), and that must not be signed overflow.
  Shape strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = checkedMul(strides[d], shape[d]).value_or(INT64_MAX);
  return strides;
}

BroadcastPlan planBroadcast(std::span<const Shape> inputs, const Shape& out) {
  if (inputs.size() > kMaxBroadcastInputs) throw KernelError("too many broadcast operands");
  BroadcastPlan p;
  p.total = numElements(out);
  const size_t nin = inputs.size();
  p.outerStrides.assign(nin, {});
  p.innerBroadcast.assign(nin, 0);
  for (const Shape& s : inputs) {
    bool ok = s.size() <= out.size();
    for (size_t i = 0; ok && i < s.size(); ++i) {
      const int64_t o = out[out.size() - s.size() + i];
      ok = s[i] == o || s[i] == 1;
    }
    if (!ok) throw KernelError(shapeToString(s) + " does not broadcast to " + shapeToString(out));
  }
  bool flat = true;
  for (const Shape& s : inputs) flat = flat && numElements(s) == p.total;
  if (flat || p.total == 0) {
    p.flat = true;
    p.inner = p.total;
    return p;
  }
  const size_t rank = out.size();
  // Per kept (non-1) output dim: its size and each input's element stride.
  std::vector<int64_t> sizes;
  std::vector<std::vector<int64_t>> strides(nin);
  std::vector<Shape> inStrides(nin);
  for (size_t k = 0; k < nin; ++k) inStrides[k] = contiguousStrides(inputs[k]);
  for (size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    sizes.push_back(out[d]);
    for (size_t k = 0; k < nin; ++k) {
      const Shape& s = inputs[k];
      const int64_t lead = static_cast<int64_t>(rank) - static_cast<int64_t>(s.size());
      const int64_t id = static_cast<int64_t>(d) - lead;
      const bool bc = id < 0 || s[id] == 1;
      strides[k].push_back(bc ? 0 : inStrides[k][id]);
    }
  }
  // Merge adjacent dims that every input walks uniformly.
  std::vector<int64_t> msizes;
  std::vector<std::vector<int64_t>> mstrides(nin);
  for (size_t d = 0; d < sizes.size(); ++d) {
    bool merge = !msizes.empty();
    for (size_t k = 0; merge && k < nin; ++k) merge = mstrides[k].back() == strides[k][d] * sizes[d];
    if (merge) {
      msizes.back() *= sizes[d];
      for (size_t k = 0; k < nin; ++k) mstrides[k].back() = strides[k][d];
    } else {
      msizes.push_back(sizes[d]);
      for (size_t k = 0; k < nin; ++k) mstrides[k].push_back(strides[k][d]);
    }
  }
  if (msizes.size() > kMaxCoalescedRank + 1) throw KernelError("broadcast of too high a rank");
  p.inner = msizes.back();
  for (size_t k = 0; k < nin; ++k) p.innerBroadcast[k] = mstrides[k].back() == 0;
  msizes.pop_back();
  p.outer = msizes;
  for (size_t k = 0; k < nin; ++k) {
    mstrides[k].pop_back();
    p.outerStrides[k] = mstrides[k];
  }
  return p;
}

// ---- strided copies ---------------------------------------------------------

// One contiguous run: a short one (an attention head's row of 32 floats) in 64-byte
// pieces the compiler inlines, where a library call would cost as much as the copy.
static inline void copyRun(void* dst, const void* src, size_t n) {
  if (n > 512) return copyBytes(dst, src, n);
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  for (; n >= 64; n -= 64, d += 64, s += 64) std::memcpy(d, s, 64);
  for (; n >= 8; n -= 8, d += 8, s += 8) std::memcpy(d, s, 8);
  for (; n > 0; --n) *d++ = *s++;
}

// The runs of the innermost dim, `rows` at a time along the next dim out (its
// stride `rowStride`), so the index walk over the outer dims happens once per
// group of runs rather than per run.
template <class E>
static void copyRuns(E* dst, const E* src, const Shape& shape, const std::vector<int64_t>& strides) {
  const size_t rank = shape.size();
  const int64_t inner = shape.back(), innerStride = strides.back();
  const int64_t rows = rank >= 2 ? shape[rank - 2] : 1, rowStride = rank >= 2 ? strides[rank - 2] : 0;
  const size_t outerRank = rank >= 2 ? rank - 2 : 0;
  const int64_t total = numElements(shape);
  std::vector<int64_t> idx(outerRank, 0);
  int64_t off = 0;
  for (int64_t done = 0; done < total; done += rows * inner) {
    for (int64_t r = 0; r < rows; ++r, dst += inner) {
      const E* run = src + off + r * rowStride;
      if (innerStride == 1) {
        copyRun(dst, run, static_cast<size_t>(inner) * sizeof(E));
      } else if (innerStride > 0) {
        VecMap<E>(dst, inner) =
            Eigen::Map<const Vec<E>, 0, Eigen::InnerStride<>>(run, inner, Eigen::InnerStride<>(innerStride));
      } else if (innerStride == 0) {  // a repeated element (a broadcast's innermost dim)
        std::fill(dst, dst + inner, run[0]);
      } else {  // reversed runs
        for (int64_t i = 0; i < inner; ++i) dst[i] = run[i * innerStride];
      }
    }
    for (size_t d = outerRank; d-- > 0;) {
      if (++idx[d] < shape[d]) {
        off += strides[d];
        break;
      }
      idx[d] = 0;
      off -= strides[d] * (shape[d] - 1);
    }
  }
}

void stridedCopy(void* dst, const void* src, const Shape& shape, std::span<const int64_t> srcStrides, int elemSize) {
  if (numElements(shape) == 0) return;
  // Coalesce: drop size-1 dims, merge dims walked uniformly.
  Shape sizes;
  std::vector<int64_t> strides;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!sizes.empty() && strides.back() == srcStrides[d] * shape[d]) {
      sizes.back() *= shape[d];
      strides.back() = srcStrides[d];
    } else {
      sizes.push_back(shape[d]);
      strides.push_back(srcStrides[d]);
    }
  }
  if (sizes.empty()) {
    sizes.push_back(1);
    strides.push_back(1);
  }
  switch (elemSize) {
    case 1: copyRuns(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), sizes, strides); break;
    case 2: copyRuns(static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src), sizes, strides); break;
    case 4: copyRuns(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), sizes, strides); break;
    default: copyRuns(static_cast<uint64_t*>(dst), static_cast<const uint64_t*>(src), sizes, strides); break;
  }
}

// ---- dispatch ---------------------------------------------------------------

using Preparer = PreparedKernel (*)(const Op&, InTypes, InTypes);

// The preparer of each op, by OpCode: ops.def's Kernel column through
// vm/kernel_rows.h (a VM instruction has none). A family without a preparer
// does not compile.
static constexpr Preparer kPreparerOf[] = {
#define PIR_KERNEL(family, fn) &prepare##family,
#define PIR_INSTRUCTION(family, fn) nullptr,
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) PIR_ROW_KERNEL(kernel)
#include "ir/ops.def"
#undef PIR_OP
#undef PIR_INSTRUCTION
#undef PIR_KERNEL
};
static_assert(std::size(kPreparerOf) == static_cast<size_t>(kNumOpCodes));

// What a kernel does when every result is empty (zero elements): there is
// nothing to write, so most do nothing, in O(1), whatever the operands' other
// dims (an operand f32[2^62,4,0] must not cost 2^62 loop turns, nor its dims be
// multiplied). Gather and scatter still check their indices, as NumPy does: an
// index out of range is an error even when nothing is copied.
static constexpr bool checksOperandsWhenEmpty(Preparer p) { return p == &prepareGather || p == &prepareScatter; }

static void runNothing(const char&, const TensorRef*, TensorRef*, KernelContext&) {}

PreparedKernel nothingToWrite() { return makeKernel<char, runNothing>(0); }

static bool allEmpty(InTypes types) {
  if (types.empty()) return false;
  for (const TensorType& t : types)
    if (t.numElements() != 0) return false;
  return true;
}

static Preparer preparerOf(OpCode code) { return kPreparerOf[static_cast<size_t>(code)]; }

bool isPlainCopy(OpCode code) { return preparerOf(code) == &prepareCopy; }

}  // namespace detail

bool hasKernel(OpCode code) { return detail::preparerOf(code) != nullptr; }

namespace detail {

// The families that compute some leading dims index by index (independentLeadingDims),
// by preparer; elementwise rows (F_ELEMENTWISE) do so over every dim.
struct IndependentFamily {
  Preparer prepare;
  int64_t (*leadingDims)(const Op&, InTypes, InTypes);
};
static constexpr IndependentFamily kIndependentFamilies[] = {
    {&prepareMatMul, &matMulIndependentDims},
    {&prepareSoftmax, &softmaxIndependentDims},
    {&prepareSoftmaxGrad, &softmaxGradIndependentDims},
};

}  // namespace detail

int64_t independentLeadingDims(const Op& op, std::span<const TensorType> inTypes,
                               std::span<const TensorType> outTypes) {
  if (outTypes.empty()) return 0;
  const detail::Preparer prepare = detail::preparerOf(op.code);
  if (!prepare) return 0;
  if (op.info().has(F_ELEMENTWISE)) return outTypes[0].rank();
  for (const detail::IndependentFamily& f : detail::kIndependentFamilies)
    if (f.prepare == prepare) return f.leadingDims(op, inTypes, outTypes);
  return 0;
}

PreparedKernel prepareKernel(const Op& op, std::span<const TensorType> inTypes,
                             std::span<const TensorType> outTypes) {
  const detail::Preparer prepare = detail::preparerOf(op.code);
  if (!prepare) throw KernelError("'" + std::string(op.info().name) + "' has no compute kernel");
  if (!detail::checksOperandsWhenEmpty(prepare) && detail::allEmpty(outTypes)) return detail::nothingToWrite();
  return prepare(op, inTypes, outTypes);
}

}  // namespace pir::vm
