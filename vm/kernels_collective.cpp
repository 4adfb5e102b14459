#include "vm/kernels_collective.h"

#include <algorithm>
#include <cstring>

#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm {
namespace {

using detail::ComputeOf;
using detail::kIsBool;
using detail::kIsHalf;
using detail::kIsInt;
using Reduce = CollectiveSpec::Reduce;

// Elements per work item (a few hundred KiB: enough to amortise scheduling,
// small enough to split a 1 MiB tensor over the threads).
constexpr int64_t kItemElements = int64_t{1} << 15;
// Elements reduced at a time into a stack accumulator (stays in L1).
constexpr int64_t kBlockElements = 1024;

// One step of each reduction, with the elementwise kernels' arithmetic.
template <class T> struct Arith {
  static T add(T a, T b) {
    if constexpr (kIsBool<T>) return a || b;
    else if constexpr (kIsInt<T>) return T(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));  // wraps
    else if constexpr (kIsHalf<T>) return T(static_cast<float>(a) + static_cast<float>(b));
    else return a + b;
  }
  static T mul(T a, T b) {
    if constexpr (kIsBool<T>) return a && b;
    else if constexpr (kIsInt<T>) return T(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));  // wraps
    else if constexpr (kIsHalf<T>) return T(static_cast<float>(a) * static_cast<float>(b));
    else return a * b;
  }
  static T max(T a, T b) {
    if constexpr (kIsBool<T>) return a || b;
    else if constexpr (kIsInt<T>) return a > b ? a : b;
    else {
      const ComputeOf<T> x = static_cast<ComputeOf<T>>(a), y = static_cast<ComputeOf<T>>(b);
      return (x != x || x > y) ? a : b;  // NaN wins, as `maximum`
    }
  }
  static T min(T a, T b) {
    if constexpr (kIsBool<T>) return a && b;
    else if constexpr (kIsInt<T>) return a < b ? a : b;
    else {
      const ComputeOf<T> x = static_cast<ComputeOf<T>>(a), y = static_cast<ComputeOf<T>>(b);
      return (x != x || x < y) ? a : b;
    }
  }
  static bool truth(T a) {
    if constexpr (kIsBool<T>) return a;
    else return static_cast<ComputeOf<T>>(a) != ComputeOf<T>(0);  // NaN is true
  }
  static T logicalAnd(T a, T b) { return T(truth(a) && truth(b) ? 1 : 0); }
  static T logicalOr(T a, T b) { return T(truth(a) || truth(b) ? 1 : 0); }
  static T divide(T a, int64_t count) {
    if constexpr (kIsBool<T>) return a;
    else if constexpr (kIsInt<T>) return T(static_cast<int64_t>(a) / count);  // truncates, as `div`
    else if constexpr (kIsHalf<T>) return T(static_cast<float>(a) / static_cast<float>(count));
    else return a / static_cast<T>(count);
  }

  template <Reduce R> static T combine(T acc, T x) {
    if constexpr (R == Reduce::Add || R == Reduce::Mean) return add(acc, x);
    else if constexpr (R == Reduce::SquareAdd) return add(acc, mul(x, x));
    else if constexpr (R == Reduce::Mul) return mul(acc, x);
    else if constexpr (R == Reduce::Min) return min(acc, x);
    else if constexpr (R == Reduce::Max) return max(acc, x);
    else if constexpr (R == Reduce::And) return logicalAnd(acc, x);
    else return logicalOr(acc, x);
  }
};

// One member's value as it enters the reduction (square_add squares it, and/or take its truth).
template <class T, Reduce R> inline T entering(T x) {
  using A = Arith<T>;
  if constexpr (R == Reduce::SquareAdd) return A::mul(x, x);
  else if constexpr (R == Reduce::And || R == Reduce::Or) return T(A::truth(x) ? 1 : 0);
  else return x;
}

// Writes the reduction of input elements [begin, end) to each target at the
// same offset minus `shift` (reduce-scatter writes member k's chunk at 0).
// Per block: acc = x0 op x1, then acc op= xk in member order, then the first
// target gets the finished values (mean divides here) and the others a copy.
// A target may be its member's input (in place): every input element of the
// block is read before any target element of the block is written.
template <class T, Reduce R>
void reduceRange(const CollectiveJob& job, int64_t begin, int64_t end, std::byte* const* targets, size_t numTargets,
                 int64_t shift) {
  using A = Arith<T>;
  const size_t members = job.inputs.size();
  const int64_t count = static_cast<int64_t>(members);
  // x / n == x * (1 / n) exactly when n is a power of two: a multiply is much
  // cheaper than a divide, and the result is the same bits.
  const bool powerOfTwo = (count & (count - 1)) == 0;
  const T reciprocal = kIsHalf<T> || kIsInt<T> || kIsBool<T> ? T(0) : T(1.0 / static_cast<double>(count));
  T acc[kBlockElements];
  std::byte* primary = nullptr;
  for (size_t t = 0; t < numTargets && !primary; ++t) primary = targets[t];
  if (!primary) return;
  for (int64_t b = begin; b < end; b += kBlockElements) {
    const int64_t len = std::min(kBlockElements, end - b);
    const T* x0 = reinterpret_cast<const T*>(job.inputs[0]) + b;
    if (members == 1) {
      for (int64_t i = 0; i < len; ++i) acc[i] = entering<T, R>(x0[i]);
    } else {
      const T* x1 = reinterpret_cast<const T*>(job.inputs[1]) + b;
      for (int64_t i = 0; i < len; ++i) acc[i] = A::template combine<R>(entering<T, R>(x0[i]), x1[i]);
      for (size_t k = 2; k < members; ++k) {
        const T* x = reinterpret_cast<const T*>(job.inputs[k]) + b;
        for (int64_t i = 0; i < len; ++i) acc[i] = A::template combine<R>(acc[i], x[i]);
      }
    }
    T* first = reinterpret_cast<T*>(primary) + (b - shift);
    if constexpr (R == Reduce::Mean && std::is_floating_point_v<T>) {
      if (powerOfTwo) {
        for (int64_t i = 0; i < len; ++i) first[i] = acc[i] * reciprocal;
      } else {
        for (int64_t i = 0; i < len; ++i) first[i] = acc[i] / static_cast<T>(count);
      }
    } else if constexpr (R == Reduce::Mean) {
      for (int64_t i = 0; i < len; ++i) first[i] = A::divide(acc[i], count);
    } else {
      copyBytes(first, acc, static_cast<size_t>(len) * sizeof(T));
    }
    for (size_t t = 0; t < numTargets; ++t)
      if (targets[t] && targets[t] != primary)
        copyBytes(targets[t] + static_cast<size_t>(b - shift) * sizeof(T), first, static_cast<size_t>(len) * sizeof(T));
  }
}

// The common case of data-parallel training, two members' float gradients summed
// or averaged into targets at the inputs' offsets (all-reduce), in one pass the
// compiler vectorises: m = (x0 + x1) * 0.5 is the block path's bits (0.5 is the
// exact reciprocal of 2). A target either is one of the inputs (in place: element
// i is read before it is written) or overlaps neither; otherwise, or for any other
// shape of job, false and the block path runs.
template <class T, Reduce R>
bool reducePairInOnePass(const CollectiveJob& job, int64_t begin, int64_t end, std::byte* const* targets,
                         size_t numTargets, int64_t shift) {
  if constexpr (!std::is_floating_point_v<T> || (R != Reduce::Add && R != Reduce::Mean)) {
    return false;
  } else {
    if (job.inputs.size() != 2 || shift != 0 || numTargets > 2) return false;
    const T* x0 = reinterpret_cast<const T*>(job.inputs[0]) + begin;
    const T* x1 = reinterpret_cast<const T*>(job.inputs[1]) + begin;
    const int64_t len = end - begin;
    T* out[2] = {nullptr, nullptr};
    size_t n = 0;
    for (size_t t = 0; t < numTargets; ++t) {
      if (!targets[t]) continue;
      T* o = reinterpret_cast<T*>(targets[t]) + begin;
      for (const T* x : {x0, x1})
        if (o != x && o < x + len && x < o + len) return false;  // a partial overlap
      out[n++] = o;
    }
    if (n == 0) return true;
    const T scale = R == Reduce::Mean ? T(0.5) : T(1);
    if (n == 1) {
      T* o = out[0];
      for (int64_t i = 0; i < len; ++i) o[i] = R == Reduce::Mean ? (x0[i] + x1[i]) * scale : x0[i] + x1[i];
    } else {
      T *o0 = out[0], *o1 = out[1];
      for (int64_t i = 0; i < len; ++i) {
        const T m = R == Reduce::Mean ? (x0[i] + x1[i]) * scale : x0[i] + x1[i];
        o0[i] = m;
        o1[i] = m;
      }
    }
    return true;
  }
}

template <class T>
void reduceDispatch(Reduce r, const CollectiveJob& job, int64_t begin, int64_t end, std::byte* const* targets,
                    size_t numTargets, int64_t shift) {
  switch (r) {
    case Reduce::Add:
      if (reducePairInOnePass<T, Reduce::Add>(job, begin, end, targets, numTargets, shift)) return;
      return reduceRange<T, Reduce::Add>(job, begin, end, targets, numTargets, shift);
    case Reduce::Mean:
      if (reducePairInOnePass<T, Reduce::Mean>(job, begin, end, targets, numTargets, shift)) return;
      return reduceRange<T, Reduce::Mean>(job, begin, end, targets, numTargets, shift);
    case Reduce::Mul: return reduceRange<T, Reduce::Mul>(job, begin, end, targets, numTargets, shift);
    case Reduce::Min: return reduceRange<T, Reduce::Min>(job, begin, end, targets, numTargets, shift);
    case Reduce::Max: return reduceRange<T, Reduce::Max>(job, begin, end, targets, numTargets, shift);
    case Reduce::And: return reduceRange<T, Reduce::And>(job, begin, end, targets, numTargets, shift);
    case Reduce::Or: return reduceRange<T, Reduce::Or>(job, begin, end, targets, numTargets, shift);
    case Reduce::SquareAdd: return reduceRange<T, Reduce::SquareAdd>(job, begin, end, targets, numTargets, shift);
  }
}

void reduce(const CollectiveJob& job, int64_t begin, int64_t end, std::byte* const* targets, size_t numTargets,
            int64_t shift) {
  if (begin >= end) return;
  detail::dispatchDType(job.inType->dtype, [&]<class T>() {
    reduceDispatch<T>(job.spec->reduce, job, begin, end, targets, numTargets, shift);
  });
}

int64_t ceilDiv(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
int64_t groupSizeOf(const CollectiveJob& job) { return static_cast<int64_t>(job.inputs.size()); }

}  // namespace

int64_t collectiveItems(const CollectiveJob& job) {
  const int64_t n = job.inType->numElements();
  switch (job.spec->kind) {
    case CollectiveSpec::Kind::AllReduce: return std::max<int64_t>(1, ceilDiv(n, kItemElements));
    case CollectiveSpec::Kind::ReduceScatter: {
      const int64_t chunk = job.outType->numElements();
      return groupSizeOf(job) * std::max<int64_t>(1, ceilDiv(chunk, kItemElements));
    }
    case CollectiveSpec::Kind::AllGather:
    case CollectiveSpec::Kind::Slice: return groupSizeOf(job);
  }
  return 1;
}

void runCollectiveItem(const CollectiveJob& job, int64_t item) {
  const TensorType& xt = *job.inType;
  const int64_t n = xt.numElements();
  const size_t elem = static_cast<size_t>(dtypeSize(xt.dtype));
  const int64_t groupSize = groupSizeOf(job);
  // An empty operand has nothing to reduce, gather or slice (nor padding: its
  // scatter chunks are empty too); its other dims may be huge, and the loops
  // below walk them.
  if (n == 0) return;
  switch (job.spec->kind) {
    case CollectiveSpec::Kind::AllReduce: {
      const int64_t begin = item * kItemElements, end = std::min(n, begin + kItemElements);
      reduce(job, begin, end, job.outputs.data(), job.outputs.size(), 0);
      return;
    }
    case CollectiveSpec::Kind::ReduceScatter: {
      // Member k gets elements [k * chunk, (k + 1) * chunk) of the reduction, zero-padded past n.
      const int64_t chunk = job.outType->numElements();
      const int64_t perMember = std::max<int64_t>(1, ceilDiv(chunk, kItemElements));
      const int64_t k = item / perMember, part = item % perMember;
      std::byte* out = job.outputs[static_cast<size_t>(k)];
      if (!out) return;
      const int64_t from = k * chunk + part * kItemElements;
      const int64_t to = k * chunk + std::min(chunk, (part + 1) * kItemElements);
      reduce(job, from, std::min(to, n), &out, 1, k * chunk);
      const int64_t padFrom = std::max(from, n);
      if (padFrom < to)
        std::memset(out + static_cast<size_t>(padFrom - k * chunk) * elem, 0, static_cast<size_t>(to - padFrom) * elem);
      return;
    }
    case CollectiveSpec::Kind::AllGather: {
      std::byte* out = job.outputs[static_cast<size_t>(item)];
      if (!out) return;
      const int64_t rank = xt.rank();
      int64_t axis = job.spec->axis < 0 ? job.spec->axis + rank : job.spec->axis;
      if (job.spec->newAxis) axis = 0;
      int64_t outer = 1;
      for (int64_t d = 0; d < axis && d < rank; ++d) outer *= xt.shape[static_cast<size_t>(d)];
      const size_t inner = outer ? static_cast<size_t>(n / outer) * elem : 0;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < groupSize; ++k)
          copyBytes(out + static_cast<size_t>(o * groupSize + k) * inner,
                      job.inputs[static_cast<size_t>(k)] + static_cast<size_t>(o) * inner, inner);
      return;
    }
    case CollectiveSpec::Kind::Slice: {
      // Member k takes the k-th equal part of its own input along the axis.
      std::byte* out = job.outputs[static_cast<size_t>(item)];
      if (!out) return;
      const std::byte* x = job.inputs[static_cast<size_t>(item)];
      const int64_t rank = xt.rank();
      const int64_t axis = job.spec->axis < 0 ? job.spec->axis + rank : job.spec->axis;
      int64_t outer = 1, inner = 1;
      for (int64_t d = 0; d < rank; ++d) {
        if (d < axis) outer *= xt.shape[static_cast<size_t>(d)];
        if (d > axis) inner *= xt.shape[static_cast<size_t>(d)];
      }
      const int64_t len = rank ? xt.shape[static_cast<size_t>(axis)] : 1;
      const int64_t part = len / groupSize;
      const size_t bytes = static_cast<size_t>(part * inner) * elem;
      for (int64_t o = 0; o < outer; ++o)
        copyBytes(out + static_cast<size_t>(o) * bytes,
                    x + static_cast<size_t>((o * len + item * part) * inner) * elem, bytes);
      return;
    }
  }
}

void runCollective(const CollectiveJob& job) {
  const int64_t items = collectiveItems(job);
  for (int64_t i = 0; i < items; ++i) runCollectiveItem(job, i);
}

}  // namespace pir::vm
