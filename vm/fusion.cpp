#include "vm/fusion.h"

#include <map>
#include <set>
#include <utility>

#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm {

namespace {

bool integerDivision(const Op& op) {
  return detail::dividesIntegers(op.code) && !op.operands.empty() && !isFloat(op.operands[0].type().dtype);
}

// The type of an elementwise op's (only) result, bound or not.
const TensorType& resultType(const Op& op) {
  if (!op.results.empty() && op.results[0]) return op.results[0]->type;
  return op.operands[static_cast<size_t>(op.info().inplaceOperand)].type();
}

}  // namespace

bool isStorage(const Op& op) { return op.info().has(F_DECL); }

bool fusibleOp(const Op& op) {
  const OpInfo& info = op.info();
  if (!info.has(F_ELEMENTWISE) || info.has(F_VIEW) || info.has(F_REGION) || !op.callees.empty()) return false;
  if (detail::isPlainCopy(op.code)) return false;  // nothing to fuse
  if (!hasKernel(op.code) || integerDivision(op) || op.results.size() > 1 || op.operands.empty()) return false;
  for (const Operand& o : op.operands) {
    if (o.kind() == Operand::Kind::Value) continue;
    if (o.kind() == Operand::Kind::Literal && o.literal()) continue;
    return false;
  }
  const int target = info.inplaceOperand;
  if (target >= static_cast<int>(op.operands.size())) return false;
  // An in-place op writes a value's storage (never a literal's shared constant).
  if (target >= 0 && op.operands[static_cast<size_t>(target)].kind() != Operand::Kind::Value) return false;
  // An unbound result is fine for an in-place op (it writes its target).
  if ((op.results.empty() || !op.results[0]) && target < 0) return false;
  return true;
}

std::vector<FusionRange> findFusionRanges(std::span<const Op* const> ops,
                                          const std::function<bool(const Op&)>& eligible) {
  std::vector<FusionRange> ranges;
  auto candidate = [&](size_t k) { return fusibleOp(*ops[k]) && eligible(*ops[k]); };
  // The values a run produced: results, and the storage its in-place ops wrote.
  auto addProduced = [](const Op& op, std::set<const Value*>& produced) {
    if (!op.results.empty() && op.results[0]) produced.insert(op.results[0]);
    if (const int t = op.info().inplaceOperand; t >= 0) produced.insert(op.operands[static_cast<size_t>(t)].value());
  };
  auto readsAny = [](const Op& op, const std::set<const Value*>& produced) {
    for (const Operand& o : op.operands)
      if (o.kind() == Operand::Kind::Value && produced.count(o.value())) return true;
    return false;
  };
  size_t k = 0;
  while (k < ops.size()) {
    if (!candidate(k)) {
      ++k;
      continue;
    }
    const Shape& shape = resultType(*ops[k]).shape;
    std::set<const Value*> produced;
    addProduced(*ops[k], produced);
    size_t e = k + 1, end = k + 1, steps = 1;
    for (; e < ops.size(); ++e) {
      if (isStorage(*ops[e])) continue;  // `const`/`var` emit no code: the run goes on past them
      if (!(candidate(e) && resultType(*ops[e]).shape == shape && readsAny(*ops[e], produced))) break;
      addProduced(*ops[e], produced);
      end = e + 1;
      ++steps;
    }
    if (steps >= 2) ranges.push_back({k, end});
    k = end;
  }
  return ranges;
}

std::string fusedOpNames(std::span<const Op* const> ops) {
  std::string s;
  for (const Op* op : ops) {
    if (!s.empty()) s += ", ";
    s += std::string(op->info().name);
  }
  return s;
}

// ---- the fused kernel ------------------------------------------------------------

void FusionScratch::reserve(int64_t parts, size_t scratchBytes, size_t buffers, size_t args) {
  constexpr size_t kAlign = 64;
  const size_t count = std::max(parts_, static_cast<size_t>(std::max<int64_t>(parts, 1)));
  const size_t partBytes =
      std::max(partBytes_, scratchBytes > SIZE_MAX - kAlign ? SIZE_MAX : (scratchBytes + kAlign - 1) / kAlign * kAlign);
  if (partBytes != partBytes_ || count != parts_) {
    AlignedBytes fresh;
    fresh.resize(partBytes > SIZE_MAX / count ? SIZE_MAX : partBytes * count);  // charges; throws before any change
    bytes_ = std::move(fresh);
    partBytes_ = partBytes;
    parts_ = count;
  }
  buffers_ = std::max(buffers_, buffers);
  args_ = std::max(args_, args);
  if (ptr_.size() < parts_ * buffers_) ptr_.resize(parts_ * buffers_);
  if (refs_.size() < parts_ * args_) refs_.resize(parts_ * args_);
}

ThreadArea FusionScratch::part(int64_t j) {
  const size_t k = static_cast<size_t>(j);
  return {bytes_.data() + k * partBytes_, ptr_.data() + k * buffers_, refs_.data() + k * args_};
}

void runInParts(KernelContext& ctx, int64_t items, int64_t parts, size_t scratchBytes, size_t buffers, size_t args,
                const std::function<void(ThreadArea, int64_t, int64_t)>& run) {
  FusionScratch own;
  FusionScratch& scratch = ctx.fusionScratch ? *ctx.fusionScratch : own;
  scratch.reserve(parts, scratchBytes, buffers, args);
  detail::splitRowsInParts(items, parts,
                           [&](int64_t part, int64_t first, int64_t end) { run(scratch.part(part), first, end); });
}

namespace {

// Where a step operand's block lives.
enum class BufKind : uint8_t {
  Flat,      // chain-shaped memory (an instruction operand): block b is at element b*kFusionBlock
  Scalar,    // one element read by every position (an instruction operand)
  Gathered,  // another broadcast operand: its elements for the block are gathered into scratch
  Scratch,   // a value only the chain reads: per-block scratch
};

struct Buffer {
  BufKind kind = BufKind::Flat;
  bool inOuts = false;   // Flat/Scalar/Gathered: the memory is outs[io], else ins[io]
  uint32_t io = 0;
  uint32_t scratch = 0;  // Gathered/Scratch: scratch buffer index
  int elemSize = 1;
  detail::BroadcastPlan plan;  // Gathered: the operand's broadcast onto the chain shape
};

// A step's kernels are for a block of kFusionBlock (or the whole chain) and the last,
// shorter block.
struct StepKernel : PreparedStep {
  ElementRun direct;  // the loop both kernels are, when they are one (called with the block's length)
};

struct FusedState {
  int64_t total = 0, block = 0, blocks = 0;
  std::vector<Buffer> buffers;
  std::vector<StepKernel> steps;
  size_t scratchCount = 0;
  size_t maxArgs = 0;
};

// Copies the elements of a broadcast operand at chain positions [start, start+n)
// into `dst` (contiguous), walking the plan's coalesced dims from `start`.
void gatherBlock(const Buffer& b, const std::byte* src, std::byte* dst, int64_t start, int64_t n) {
  const detail::BroadcastPlan& p = b.plan;
  const size_t es = static_cast<size_t>(b.elemSize);
  const int64_t inner = p.inner;
  const bool repeated = p.innerBroadcast[0] != 0;
  const size_t rank = p.outer.size();
  int64_t idx[detail::kMaxCoalescedRank + 1] = {0};
  int64_t rest = start / inner;
  int64_t within = start % inner;
  int64_t off = 0;
  for (size_t d = rank; d-- > 0;) {
    idx[d] = rest % p.outer[d];
    rest /= p.outer[d];
    off += idx[d] * p.outerStrides[0][d];
  }
  while (n > 0) {
    const int64_t len = std::min(n, inner - within);
    if (repeated) {
      const std::byte* e = src + off * es;
      switch (es) {
        case 1: std::fill_n(reinterpret_cast<uint8_t*>(dst), len, *reinterpret_cast<const uint8_t*>(e)); break;
        case 2: std::fill_n(reinterpret_cast<uint16_t*>(dst), len, *reinterpret_cast<const uint16_t*>(e)); break;
        case 4: std::fill_n(reinterpret_cast<uint32_t*>(dst), len, *reinterpret_cast<const uint32_t*>(e)); break;
        default: std::fill_n(reinterpret_cast<uint64_t*>(dst), len, *reinterpret_cast<const uint64_t*>(e)); break;
      }
    } else {
      copyBytes(dst, src + (off + within) * es, static_cast<size_t>(len) * es);
    }
    dst += static_cast<size_t>(len) * es;
    n -= len;
    within = 0;
    for (size_t d = rank; d-- > 0;) {  // next run: odometer over the outer dims
      if (++idx[d] < p.outer[d]) {
        off += p.outerStrides[0][d];
        break;
      }
      off -= p.outerStrides[0][d] * (p.outer[d] - 1);
      idx[d] = 0;
    }
  }
}

size_t scratchStride(const FusedState& s) { return (static_cast<size_t>(s.block) * 8 + 63) / 64 * 64; }

void runBlocks(const FusedState& s, ThreadArea area, const TensorRef* ins, TensorRef* outs, KernelContext& ctx,
               int64_t b0, int64_t b1) {
  const size_t stride = scratchStride(s);
  std::byte* scratch0 = area.scratch;
  std::byte** ptr = area.ptr;
  TensorRef* refs = area.refs;
  for (int64_t b = b0; b < b1; ++b) {
    const int64_t start = b * s.block;
    const int64_t n = std::min(s.block, s.total - start);
    const bool tail = n != s.block;
    for (size_t i = 0; i < s.buffers.size(); ++i) {
      const Buffer& buf = s.buffers[i];
      std::byte* base = static_cast<std::byte*>(buf.inOuts ? outs[buf.io].data : ins[buf.io].data);
      switch (buf.kind) {
        case BufKind::Flat: ptr[i] = base + start * buf.elemSize; break;
        case BufKind::Scalar: ptr[i] = base; break;
        case BufKind::Gathered:
          ptr[i] = scratch0 + buf.scratch * stride;
          gatherBlock(buf, base, ptr[i], start, n);
          break;
        case BufKind::Scratch: ptr[i] = scratch0 + buf.scratch * stride; break;
      }
    }
    for (const StepKernel& step : s.steps) {
      if (step.direct) {
        const std::byte* args[2];
        for (size_t j = 0; j < step.ins.size(); ++j) args[j] = ptr[step.ins[j]];
        step.direct.invoke(step.direct.loop, args, ptr[step.outs[0]], n);
        continue;
      }
      step.run(ptr, refs, tail, ctx);
    }
  }
}

void runFused(const FusedState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  // Large chains split their blocks over the kernel threads (each with its own
  // scratch), a contiguous run of blocks per thread as splitRows cuts rows, so a
  // thread's part starts where an elementwise op's would; the steps' own kernels then
  // see block-sized ranges and never split.
  runInParts(ctx, s.blocks, detail::rowParts(s.blocks, s.block), s.scratchCount * scratchStride(s), s.buffers.size(),
             s.maxArgs, [&](ThreadArea area, int64_t b0, int64_t b1) { runBlocks(s, area, ins, outs, ctx, b0, b1); });
}

}  // namespace

std::vector<FusionStep> chainSteps(std::span<const Op* const> chainOps,
                                   const std::function<uint32_t(const Operand&)>& operandSlot,
                                   const std::function<uint32_t(const Value*)>& valueSlot) {
  std::vector<FusionStep> steps;
  for (const Op* op : chainOps) {
    if (isStorage(*op)) continue;
    FusionStep st;
    st.op = op;
    for (const Operand& o : op->operands) st.ins.push_back({operandSlot(o), &o.type()});
    const Value* v = op->results.empty() ? nullptr : op->results[0];
    if (v) st.outs.push_back({valueSlot(v), &v->type.get()});
    else st.outs.push_back(st.ins[static_cast<size_t>(op->info().inplaceOperand)]);
    steps.push_back(std::move(st));
  }
  return steps;
}

FusedChain buildFusedChain(std::span<const FusionStep> steps, const std::function<bool(uint32_t)>& keep) {
  if (steps.empty() || steps[0].outs.empty()) throw KernelError("fused chain: no steps");
  FusedChain chain;
  FusedState s;
  s.total = steps[0].outs[0].type->numElements();
  s.block = std::min(kFusionBlock, std::max<int64_t>(s.total, 1));
  s.blocks = (s.total + s.block - 1) / s.block;
  const int64_t tailLen = s.total % s.block;
  const Shape& chainShape = steps[0].outs[0].type->shape;

  // Buffers by slot (a gathered operand also by the shape it is read as: two
  // aliases of one slot may broadcast differently).
  std::map<std::pair<uint32_t, Shape>, uint32_t> bufferOf;
  std::set<uint32_t> listedOut;
  auto addScratch = [&](Buffer b) {
    b.scratch = static_cast<uint32_t>(s.scratchCount++);
    s.buffers.push_back(std::move(b));
    return static_cast<uint32_t>(s.buffers.size() - 1);
  };
  auto readBuffer = [&](const FusionArg& a) -> uint32_t {
    const int64_t n = a.type->numElements();
    const bool gathered = n != s.total && n != 1;
    const auto key = std::make_pair(a.slot, gathered ? a.type->shape : Shape{});
    if (auto it = bufferOf.find(key); it != bufferOf.end()) return it->second;
    Buffer b;
    b.elemSize = dtypeSize(a.type->dtype);
    b.io = static_cast<uint32_t>(chain.ins.size());
    chain.ins.push_back(a);
    uint32_t index;
    if (gathered) {
      b.kind = BufKind::Gathered;
      const Shape shapes[1] = {a.type->shape};
      b.plan = detail::planBroadcast(shapes, chainShape);
      if (b.plan.total != s.total) throw KernelError("fused chain: " + a.type->str() + " does not broadcast");
      index = addScratch(std::move(b));
    } else {
      b.kind = n == s.total ? BufKind::Flat : BufKind::Scalar;
      s.buffers.push_back(std::move(b));
      index = static_cast<uint32_t>(s.buffers.size() - 1);
    }
    bufferOf[key] = index;
    return index;
  };
  auto writeBuffer = [&](const FusionArg& a) -> uint32_t {
    const auto key = std::make_pair(a.slot, Shape{});
    const bool memory = keep(a.slot);
    if (memory && !listedOut.count(a.slot)) {  // listed once, whoever writes it first
      listedOut.insert(a.slot);
      chain.outs.push_back(a);
    }
    if (auto it = bufferOf.find(key); it != bufferOf.end()) return it->second;
    Buffer b;
    b.elemSize = dtypeSize(a.type->dtype);
    if (!memory) {
      b.kind = BufKind::Scratch;
      return bufferOf[key] = addScratch(std::move(b));
    }
    b.kind = BufKind::Flat;
    b.inOuts = true;
    b.io = static_cast<uint32_t>(chain.outs.size() - 1);
    s.buffers.push_back(std::move(b));
    return bufferOf[key] = static_cast<uint32_t>(s.buffers.size() - 1);
  };

  for (const FusionStep& step : steps) {
    StepKernel k;
    std::vector<TensorType> full, tail;
    auto blockType = [&](const FusionArg& a, int64_t len, bool scalar) {
      return TensorType{a.type->dtype, scalar ? Shape{} : Shape{len}};
    };
    for (const FusionArg& a : step.ins) {
      const uint32_t b = readBuffer(a);
      k.ins.push_back(b);
      const bool scalar = s.buffers[b].kind == BufKind::Scalar;
      full.push_back(blockType(a, s.block, scalar));
      tail.push_back(blockType(a, tailLen, scalar));
    }
    for (const FusionArg& a : step.outs) {
      if (a.type->numElements() != s.total) throw KernelError("fused chain: results of different sizes");
      k.outs.push_back(writeBuffer(a));
      full.push_back(blockType(a, s.block, false));
      tail.push_back(blockType(a, tailLen, false));
    }
    const size_t nin = step.ins.size();
    k.full = prepareKernel(*step.op, std::span(full).first(nin), std::span(full).subspan(nin));
    if (tailLen > 0 && s.blocks > 1)
      k.tail = prepareKernel(*step.op, std::span(tail).first(nin), std::span(tail).subspan(nin));
    if (k.full.run && nin <= 2 && k.outs.size() == 1 && (k.tail.fn == nullptr || k.tail.run == k.full.run))
      k.direct = k.full.run;
    k.types = std::move(full);
    k.tailTypes = std::move(tail);
    s.maxArgs = std::max(s.maxArgs, k.types.size());
    s.steps.push_back(std::move(k));
  }
  if (s.blocks == 1 || tailLen == 0)  // no shorter block: the tail types are never used
    for (StepKernel& k : s.steps) k.tailTypes = k.types;
  chain.kernel = detail::makeKernel<FusedState, runFused>(std::move(s));
  return chain;
}

}  // namespace pir::vm
