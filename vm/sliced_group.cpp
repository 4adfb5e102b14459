#include "vm/sliced_group.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "ir/checked_math.h"
#include "vm/kernel_util.h"
#include "vm/simd_kernels.h"
#include "vm/tensor.h"

namespace pir::vm {

namespace {

// A group holds at most this many steps: the finder re-checks the whole run at each
// step it adds.
constexpr size_t kMaxGroupSteps = 32;

// A slice covers as many leading indices as keep the bytes it touches (every sliced
// operand, result and slice buffer) near this size, at least one: with a thread's
// other data it stays in its core's L2.
constexpr int64_t kSliceTargetBytes = 64 * 1024;

// buildSlicedGroup refuses slice buffers of more than this many bytes per index (a run
// that findSlicedRanges accepts takes at most kMaxGroupBytesPerIndex, alignment aside).
constexpr int64_t kMaxSliceScratchBytes = int64_t{4} << 20;

// A run whose operands and results take more than this many bytes per leading index
// is not grouped: one index's slice would not stay in cache between the ops anyway,
// and its ops split their own work over the kernel threads more evenly than a few
// large slices would.
constexpr int64_t kMaxGroupBytesPerIndex = int64_t{1} << 20;

// A group needs at least this many leading indices. Its slices split over the kernel
// threads whole, where each of its ops alone would split evenly: with few slices, an
// odd count leaves a thread idle for a slice (3 slices on 2 threads run at 75%).
constexpr int64_t kMinGroupIndices = 8;

// How an operand of a step is read, given the group's leading dims.
enum class Part : uint8_t {
  Sliced,   // it has the leading dims: index i is its slice i
  Whole,    // its aligned dims there are 1 or absent: every index reads all of it
  Neither,  // it broadcasts along some of them: no group
};

// `operand` against a result of rank `rank` whose first lead.size() dims are `lead`.
Part partOf(const Shape& operand, const Shape& lead, size_t rank) {
  const size_t d = lead.size();
  if (operand.size() == rank && std::equal(lead.begin(), lead.end(), operand.begin())) return Part::Sliced;
  if (operand.size() > rank) return Part::Neither;
  const size_t offset = rank - operand.size();  // operand dim j aligns with result dim j + offset
  for (size_t p = offset; p < d; ++p)
    if (operand[p - offset] != 1) return Part::Neither;
  return Part::Whole;
}

// A candidate step: its operand and result types and its independent leading dims.
struct Candidate {
  std::vector<const TensorType*> ins, outs;
  int64_t dims = 0;
  bool elementwise = false;
};

bool candidate(const Op& op, Candidate& c) {
  const OpInfo& info = op.info();
  if (isStorage(op) || info.has(F_VIEW) || info.has(F_REGION) || info.has(F_INPLACE) || info.inplaceOperand >= 0 ||
      info.has(F_SIDE_EFFECT) || info.has(F_RANDOM) || !op.callees.empty() || !hasKernel(op.code) ||
      op.results.empty())
    return false;
  c.elementwise = info.has(F_ELEMENTWISE);
  if (c.elementwise && !fusibleOp(op)) return false;  // integer division, plain copies
  for (const Value* v : op.results) {
    if (!v) return false;
    c.outs.push_back(&v->type.get());
  }
  for (const Operand& o : op.operands) {
    const bool tensor =
        o.kind() == Operand::Kind::Value || (o.kind() == Operand::Kind::Literal && o.literal() != nullptr);
    if (!tensor) return false;
    c.ins.push_back(&o.type());
  }
  std::vector<TensorType> ins, outs;
  for (const TensorType* t : c.ins) ins.push_back(*t);
  for (const TensorType* t : c.outs) outs.push_back(*t);
  try {
    c.dims = independentLeadingDims(op, ins, outs);
  } catch (const KernelError&) {
    return false;
  }
  return c.dims > 0;
}

// The first dims shared by every result of `c` and `lead`, at most c.dims of them.
size_t sharedLead(const Candidate& c, const Shape& lead) {
  size_t d = std::min(static_cast<size_t>(c.dims), lead.size());
  for (const TensorType* t : c.outs) {
    size_t j = 0;
    while (j < d && j < t->shape.size() && t->shape[j] == lead[j]) ++j;
    d = j;
  }
  return d;
}

// The bytes per index of `lead` that the steps' results and sliced operands take
// (each counted at every use: an estimate).
uint64_t bytesPerIndex(std::span<const Candidate> steps, const Shape& lead) {
  const uint64_t count = static_cast<uint64_t>(std::max<int64_t>(numElements(lead), 1));
  uint64_t bytes = 0;
  for (const Candidate& c : steps) {
    const size_t rank = c.outs[0]->shape.size();
    auto add = [&](const TensorType* t) {
      const uint64_t all = saturatingMul(static_cast<uint64_t>(t->numElements()), dtypeSize(t->dtype));
      bytes = saturatingAdd(bytes, all / count);
    };
    for (const TensorType* t : c.ins)
      if (partOf(t->shape, lead, rank) == Part::Sliced) add(t);
    for (const TensorType* t : c.outs) add(t);
  }
  return bytes;
}

// True when every operand of every step is sliced or whole over `lead`.
bool allParts(std::span<const Candidate> steps, const Shape& lead) {
  for (const Candidate& c : steps) {
    const size_t rank = c.outs[0]->shape.size();
    for (const TensorType* t : c.ins)
      if (partOf(t->shape, lead, rank) == Part::Neither) return false;
  }
  return true;
}

}  // namespace

std::vector<SlicedRange> findSlicedRanges(std::span<const Op* const> ops,
                                          const std::function<bool(const Op&)>& eligible) {
  std::vector<SlicedRange> ranges;
  size_t k = 0;
  while (k < ops.size()) {
    // A group starts at an op that is not elementwise: elementwise ops before it are
    // left to the chains (vm/fusion.h) that the ops before them may start.
    Candidate first;
    if (ops[k]->info().has(F_ELEMENTWISE) || !eligible(*ops[k]) || !candidate(*ops[k], first)) {
      ++k;
      continue;
    }
    Shape lead = first.outs[0]->shape;
    lead.resize(sharedLead(first, lead));
    std::vector<Candidate> steps{first};
    size_t end = k + 1;
    if (numElements(lead) < kMinGroupIndices || !allParts(steps, lead)) {
      ++k;
      continue;
    }
    for (size_t e = k + 1; e < ops.size() && steps.size() < kMaxGroupSteps; ++e) {
      if (isStorage(*ops[e])) continue;  // `const`/`var` emit no code
      Candidate next;
      if (!eligible(*ops[e]) || !candidate(*ops[e], next)) break;
      Shape shorter = lead;
      shorter.resize(sharedLead(next, lead));
      if (shorter.empty() || numElements(shorter) < kMinGroupIndices) break;
      steps.push_back(next);
      if (!allParts(steps, shorter)) {
        steps.pop_back();
        break;
      }
      lead = std::move(shorter);
      end = e + 1;
    }
    // Worth a group: more than one slice (else nothing stays in cache that would not
    // anyway), and slices that can stay in cache.
    const uint64_t perIndex = bytesPerIndex(steps, lead);
    const uint64_t total = saturatingMul(perIndex, static_cast<uint64_t>(numElements(lead)));
    if (steps.size() >= 2 && perIndex <= static_cast<uint64_t>(kMaxGroupBytesPerIndex) &&
        total > static_cast<uint64_t>(2 * kSliceTargetBytes))
      ranges.push_back({k, end, static_cast<int64_t>(lead.size())});
    // The next run starts after this one either way, so that each op is looked at a
    // bounded number of times (a rejected run's later ops would mostly form smaller
    // runs of the same kind).
    k = end;
  }
  return ranges;
}

// ---- the group's kernel ----------------------------------------------------------

namespace {

enum class BufKind : uint8_t {
  Sliced,   // memory with the leading dims (an instruction operand): slice s at s * per * bytesPerIndex
  Whole,    // memory every slice reads whole (an instruction operand)
  Scratch,  // a value only the group reads: the thread's slice buffer
};

struct Buffer {
  BufKind kind = BufKind::Sliced;
  bool inOuts = false;  // Sliced/Whole: the memory is outs[io], else ins[io]
  uint32_t io = 0;
  int64_t bytesPerIndex = 0;  // Sliced/Scratch
  int64_t scratchOffset = 0;  // Scratch: bytes into the thread's slice buffers
};

struct SlicedState {
  int64_t count = 0;   // leading indices in all
  int64_t per = 0;     // indices per slice (the last slice may have fewer)
  int64_t slices = 0;
  int64_t bytes = 0;   // touched per index, all buffers
  int64_t scratchBytes = 0;  // per thread
  std::vector<Buffer> buffers;
  std::vector<PreparedStep> steps;  // slice types: `per` indices, then the last slice's
  size_t maxArgs = 0;
};

constexpr int64_t kAlign = 64;
int64_t aligned(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

void runSlices(const SlicedState& s, ThreadArea area, const TensorRef* ins, TensorRef* outs, KernelContext& ctx,
               int64_t s0, int64_t s1) {
  std::byte* scratch0 = area.scratch;
  std::byte** ptr = area.ptr;
  TensorRef* refs = area.refs;
  for (int64_t slice = s0; slice < s1; ++slice) {
    const int64_t first = slice * s.per;
    const bool tail = s.count - first < s.per;
    for (size_t i = 0; i < s.buffers.size(); ++i) {
      const Buffer& b = s.buffers[i];
      switch (b.kind) {
        case BufKind::Sliced:
          ptr[i] = static_cast<std::byte*>(b.inOuts ? outs[b.io].data : ins[b.io].data) + first * b.bytesPerIndex;
          break;
        case BufKind::Whole: ptr[i] = static_cast<std::byte*>(b.inOuts ? outs[b.io].data : ins[b.io].data); break;
        case BufKind::Scratch: ptr[i] = scratch0 + b.scratchOffset; break;
      }
    }
    for (const PreparedStep& step : s.steps) step.run(ptr, refs, tail, ctx);
  }
}

void runGroup(const SlicedState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  // Slices split over the kernel threads, a contiguous run per thread (parallelTasks);
  // the steps' own kernels then run on one thread. Small groups stay on this one.
  const int64_t touched = s.count > 0 && s.bytes <= INT64_MAX / s.count ? s.count * s.bytes : INT64_MAX;
  const bool split = s.slices >= 2 && simd::kernelThreads() > 1 && touched >= 2 * detail::kMinElementsPerThread * 4;
  const int64_t parts = split ? std::min<int64_t>(simd::kernelThreads(), s.slices) : 1;
  runInParts(ctx, s.slices, parts, static_cast<size_t>(s.scratchBytes), s.buffers.size(), s.maxArgs,
             [&](ThreadArea area, int64_t first, int64_t end) { runSlices(s, area, ins, outs, ctx, first, end); });
}

}  // namespace

FusedChain buildSlicedGroup(std::span<const FusionStep> steps, int64_t leadingDims,
                            const std::function<bool(uint32_t)>& keep) {
  if (steps.empty() || steps[0].outs.empty() || leadingDims < 1) throw KernelError("sliced group: no steps");
  const Shape& first = steps[0].outs[0].type->shape;
  if (static_cast<int64_t>(first.size()) < leadingDims) throw KernelError("sliced group: rank below its dims");
  const Shape lead(first.begin(), first.begin() + leadingDims);
  FusedChain group;
  SlicedState s;
  s.count = numElements(lead);
  if (s.count < 2) throw KernelError("sliced group: one index");

  // Each read and written operand's part, and the bytes per index of the sliced ones.
  // Operands are allocated (the arena and the budget bound them), so their bytes fit;
  // a saturated count would mean a type no slot holds: no group then.
  auto bytesOf = [](const FusionArg& a) {
    const std::optional<int64_t> bytes = checkedMul<int64_t>(a.type->numElements(), dtypeSize(a.type->dtype));
    if (!bytes || a.type->numElements() == INT64_MAX) throw KernelError("sliced group: an operand too large");
    return *bytes;
  };
  auto sliceBytes = [&](const FusionArg& a) { return bytesOf(a) / s.count; };
  std::set<uint32_t> writtenSlots;
  std::set<int64_t> writtenSizes;
  for (const FusionStep& st : steps)
    for (const FusionArg& a : st.outs) {
      if (partOf(a.type->shape, lead, a.type->shape.size()) != Part::Sliced)
        throw KernelError("sliced group: a result without the leading dims");
      writtenSlots.insert(a.slot);
      writtenSizes.insert(bytesOf(a));
    }

  // Values that die within the group live in slice buffers.
  std::set<uint32_t> scratchSlots;
  int64_t scratchPerIndex = 0, memoryPerIndex = 0;
  {
    std::set<uint32_t> seen;
    for (const FusionStep& st : steps) {
      const size_t rank = st.outs[0].type->shape.size();
      for (const FusionArg& a : st.ins)
        if (!writtenSlots.count(a.slot) && partOf(a.type->shape, lead, rank) == Part::Sliced && seen.insert(a.slot).second)
          memoryPerIndex += sliceBytes(a);
      for (const FusionArg& a : st.outs) {
        if (!seen.insert(a.slot).second) continue;
        if (keep(a.slot)) {
          memoryPerIndex += sliceBytes(a);
        } else {
          scratchSlots.insert(a.slot);
          scratchPerIndex += aligned(sliceBytes(a));
        }
      }
    }
  }
  if (scratchPerIndex > kMaxSliceScratchBytes) throw KernelError("sliced group: slice buffers too large");
  s.bytes = memoryPerIndex + scratchPerIndex;
  // per * bytes <= kSliceTargetBytes unless per is 1, so the buffers stay below the cap.
  s.per = std::clamp<int64_t>(kSliceTargetBytes / std::max<int64_t>(s.bytes, 1), 1, s.count);
  s.slices = (s.count + s.per - 1) / s.per;
  const int64_t tailCount = s.count % s.per;

  std::map<std::pair<uint32_t, bool>, uint32_t> bufferOf;  // (slot, whole) -> buffer
  std::set<uint32_t> listedOut;
  auto readBuffer = [&](const FusionArg& a, Part part) -> uint32_t {
    const bool whole = part == Part::Whole;
    if (whole && (writtenSlots.count(a.slot) || writtenSizes.count(bytesOf(a))))
      throw KernelError("sliced group: a whole operand may share storage with a result");
    const auto key = std::make_pair(a.slot, whole);
    if (auto it = bufferOf.find(key); it != bufferOf.end()) return it->second;
    Buffer b;
    b.kind = whole ? BufKind::Whole : BufKind::Sliced;
    b.bytesPerIndex = whole ? 0 : sliceBytes(a);
    b.io = static_cast<uint32_t>(group.ins.size());
    group.ins.push_back(a);
    s.buffers.push_back(b);
    return bufferOf[key] = static_cast<uint32_t>(s.buffers.size() - 1);
  };
  auto writeBuffer = [&](const FusionArg& a) -> uint32_t {
    const bool memory = !scratchSlots.count(a.slot);
    if (memory && !listedOut.count(a.slot)) {  // listed once, whoever writes it first
      listedOut.insert(a.slot);
      group.outs.push_back(a);
    }
    const auto key = std::make_pair(a.slot, false);
    if (auto it = bufferOf.find(key); it != bufferOf.end()) {
      if (s.buffers[it->second].bytesPerIndex != sliceBytes(a))
        throw KernelError("sliced group: one slot with two slice sizes");
      return it->second;
    }
    Buffer b;
    b.bytesPerIndex = sliceBytes(a);
    if (!memory) {
      b.kind = BufKind::Scratch;
      b.scratchOffset = s.scratchBytes;
      s.scratchBytes += aligned(s.per * b.bytesPerIndex);
    } else {
      b.kind = BufKind::Sliced;
      b.inOuts = true;
      b.io = static_cast<uint32_t>(group.outs.size() - 1);
    }
    s.buffers.push_back(b);
    return bufferOf[key] = static_cast<uint32_t>(s.buffers.size() - 1);
  };

  // A slice's type keeps the rank, so that an op's axis attributes mean what they
  // meant: `indices` consecutive leading indices as the last leading dim, the others 1,
  // then the dims after the leading ones. A whole operand keeps its type (its dims
  // there are 1 or absent, so it broadcasts onto the slice as onto the whole).
  auto sliceType = [&](const FusionArg& a, Part part, int64_t indices) {
    if (part == Part::Whole) return *a.type;
    const Shape& shape = a.type->shape;
    Shape sliced(static_cast<size_t>(leadingDims) - 1, 1);
    sliced.push_back(indices);
    sliced.insert(sliced.end(), shape.begin() + leadingDims, shape.end());
    return TensorType{a.type->dtype, std::move(sliced)};
  };

  for (const FusionStep& st : steps) {
    PreparedStep k;
    const size_t rank = st.outs[0].type->shape.size();
    std::vector<TensorType> full, tail;
    for (const FusionArg& a : st.ins) {
      const Part part = partOf(a.type->shape, lead, rank);
      if (part == Part::Neither) throw KernelError("sliced group: an operand broadcasts along the leading dims");
      k.ins.push_back(readBuffer(a, part));
      full.push_back(sliceType(a, part, s.per));
      tail.push_back(sliceType(a, part, tailCount));
    }
    for (const FusionArg& a : st.outs) {
      k.outs.push_back(writeBuffer(a));
      full.push_back(sliceType(a, Part::Sliced, s.per));
      tail.push_back(sliceType(a, Part::Sliced, tailCount));
    }
    const size_t nin = st.ins.size();
    k.full = prepareKernel(*st.op, std::span(full).first(nin), std::span(full).subspan(nin));
    if (tailCount > 0) k.tail = prepareKernel(*st.op, std::span(tail).first(nin), std::span(tail).subspan(nin));
    k.types = std::move(full);
    k.tailTypes = tailCount > 0 ? std::move(tail) : k.types;
    s.maxArgs = std::max(s.maxArgs, k.types.size());
    s.steps.push_back(std::move(k));
  }
  group.kernel = detail::makeKernel<SlicedState, runGroup>(std::move(s));
  return group;
}

}  // namespace pir::vm
