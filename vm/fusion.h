// Fused elementwise chains (docs/decisions.md "Fused elementwise chains").
//
// The compiler finds runs of consecutive elementwise ops of one result shape,
// each reading a value an earlier op of the run produced (a relu gradient
// `greater` + `where`, bias-add + relu, an SGD update `mul` + `scaled_add_`),
// and emits one `fused` instruction for the run. Its kernel walks the
// elements in blocks of kFusionBlock: per block it runs every op's own
// kernel (prepared for the block's length, so the per-element arithmetic is
// the unfused kernel's, bit for bit) over block-sized pieces of the operands.
// Values that nothing after the chain reads live only in per-block scratch
// buffers (they stay in L1) and are never written to their arena slot.
//
// Invariants that make the block order equal the op order:
//  - every step computes element i from element i of its chain-shaped
//    operands (or a broadcast operand the chain never writes), so processing
//    block by block performs, for each element, the same operations in the
//    same order as the op-by-op program;
//  - two slots either are the same storage or are disjoint (the arena reuses
//    a buffer only for a value of the same byte size), so an in-place write
//    or a reused buffer only ever touches the block being computed;
//  - no step can fail at run time (integer division is left unfused), so a
//    chain never stops half-way through its blocks.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "vm/kernels.h"
#include "vm/tensor.h"

namespace pir::vm {

// Elements per block: a multiple of every vector width (and of 64, the
// thread-split granule); 4 KiB of f32 per operand keeps a chain of a few
// operands in L1.
inline constexpr int64_t kFusionBlock = 1024;

// True if `op` may be a step of a chain: an elementwise op with a compute
// kernel (unary incl. clip, binary incl. comparisons and variadic
// maximum/minimum, where, scaled_add, cast; the in-place `_` variants
// included), one result (or an in-place alias of a value), tensor operands
// only, and no run-time error path (integer div/fmod are excluded).
bool fusibleOp(const Op& op);

// `const` and `var`: storage, no code; a chain may run past them (they are
// not steps of it).
bool isStorage(const Op& op);

// A half-open range of positions in the compiler's flattened op list.
struct FusionRange {
  size_t begin = 0, end = 0;
};

// The chains of `ops`: maximal runs of consecutive ops with fusibleOp and
// `eligible` (the compiler's own conditions, e.g. no view slots) that have the
// same result type shape, where each op after the first reads a result of an
// earlier op of the run (storage ops in between are skipped). Only runs of
// two steps or more.
std::vector<FusionRange> findFusionRanges(std::span<const Op* const> ops,
                                          const std::function<bool(const Op&)>& eligible);

// One operand use as the compiler resolved it.
struct FusionArg {
  uint32_t slot = 0;
  const TensorType* type = nullptr;
};
struct FusionStep {
  const Op* op = nullptr;
  std::vector<FusionArg> ins;   // tensor operands in order (values and literals)
  std::vector<FusionArg> outs;  // results; an in-place op's out 0 is its in 0's slot
};

// One op of a fused chain or sliced group (vm/sliced_group.h), prepared: its kernel
// for a full block (or slice) and for the shorter last one, and the buffers it reads
// and writes, as indices into the instruction's buffer pointers.
struct PreparedStep {
  PreparedKernel full, tail;
  std::vector<uint32_t> ins, outs;  // buffer indices
  std::vector<TensorType> types;    // per operand then result: the types `full` was prepared for
  std::vector<TensorType> tailTypes;
  // Runs the kernel (`tail`'s for the last block) on the buffers at `ptr`; `refs`
  // has room for every operand and result.
  void run(std::byte* const* ptr, TensorRef* refs, bool last, KernelContext& ctx) const {
    const std::vector<TensorType>& t = last ? tailTypes : types;
    const size_t nin = ins.size();
    for (size_t j = 0; j < nin; ++j) refs[j] = TensorRef{ptr[ins[j]], &t[j]};
    for (size_t j = 0; j < outs.size(); ++j) refs[nin + j] = TensorRef{ptr[outs[j]], &t[nin + j]};
    (last ? tail : full)(refs, refs + nin, ctx);
  }
};

// One part's working memory in a fused chain or sliced group: `scratch` aligned to 64,
// buffer pointers and TensorRefs.
struct ThreadArea {
  std::byte* scratch;
  std::byte** ptr;
  TensorRef* refs;
};

// The working memory of the fused instructions one worker thread runs: an area per
// part of a kernel-thread split. Grown by the thread that runs the instruction, before
// the split (the parts must not throw); its scratch is an AlignedBytes, so it is charged
// to the host-memory budget for as long as it is held, and a request beyond the budget
// fails the instruction like any other. Fused instructions reuse it (they never nest:
// their steps are kernels). Grows only.
class FusionScratch {
 public:
  // Room for `parts` areas of `scratchBytes` bytes, `buffers` pointers and `args`
  // TensorRefs each; throws HostMemoryExhausted when the budget refuses (nothing
  // changed then).
  void reserve(int64_t parts, size_t scratchBytes, size_t buffers, size_t args);
  // Area j, for j below the parts of the last reserve.
  ThreadArea part(int64_t j);
  size_t scratchBytesHeld() const { return bytes_.size(); }

 private:
  AlignedBytes bytes_;
  size_t parts_ = 0, partBytes_ = 0, buffers_ = 0, args_ = 0;  // partBytes_: a multiple of 64
  std::vector<std::byte*> ptr_;
  std::vector<TensorRef> refs_;
};

// run(area, first, end) over [0, items) in `parts` contiguous runs (detail::
// splitRowsInParts), each with its own area of ctx.fusionScratch (or, without one, of
// a FusionScratch made for this call), reserved before the split: the shared body of
// fused chains and sliced groups.
void runInParts(KernelContext& ctx, int64_t items, int64_t parts, size_t scratchBytes, size_t buffers, size_t args,
                const std::function<void(ThreadArea, int64_t, int64_t)>& run);

// What a chain reads and writes, and its kernel: ins then outs are the
// instruction's operands.
struct FusedChain {
  std::vector<FusionArg> ins;   // slots read before the chain writes them (each once)
  std::vector<FusionArg> outs;  // slots written to memory (each once)
  PreparedKernel kernel;
};

// Builds the chain of `steps` (all results of one shape). `keep(slot)` says
// whether a slot a step writes must be written to memory (read after the
// chain, returned, a variable, parameter or main-graph value, or read by
// nothing at all); other written slots are per-block scratch.
// Throws KernelError when a step has no kernel for its types.
FusedChain buildFusedChain(std::span<const FusionStep> steps, const std::function<bool(uint32_t)>& keep);

// The steps of a chain's ops (storage ops skipped: their slots were planned
// with the results), operands and results resolved to slots by `operandSlot` and
// `valueSlot`; an in-place op without a result writes its target operand's slot.
std::vector<FusionStep> chainSteps(std::span<const Op* const> chainOps,
                                   const std::function<uint32_t(const Operand&)>& operandSlot,
                                   const std::function<uint32_t(const Value*)>& valueSlot);

// "greater, where": the ops of a chain, for disasm and --trace.
std::string fusedOpNames(std::span<const Op* const> ops);

}  // namespace pir::vm
