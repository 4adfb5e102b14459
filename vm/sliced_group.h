// Sliced groups (docs/decisions.md "Sliced groups").
//
// The compiler finds runs of consecutive ops that share leading result dims over
// which every op of the run computes index by index (independentLeadingDims in
// vm/kernels.h: a batched matmul's batch dims, softmax's dims before its axis, every
// dim of an elementwise op), the first of them not elementwise: attention's score
// product, scale, softmax and context product, or their gradients. An op need not read
// what an earlier one produced (the gradient's two products of one matmul). It emits one
// `fused` instruction that runs the whole run on one slice of those dims (a few of
// the leading indices) before the next slice. Each step runs its op's own kernel,
// prepared for the slice's types, so every index gets the unfused kernel's
// arithmetic, bit for bit; a value that dies within the run lives only in a slice
// buffer of the thread that computes it, which stays in its cache, instead of going
// to memory and back between the ops.
//
// Invariants that make slice order equal op order:
//  - every step computes index i of the leading dims from index i of its sliced
//    operands and the whole of its other operands, which no step of the group
//    writes (checked on the slots, and no whole operand has a written slot's size);
//  - two slots either are the same storage or are disjoint, and every sliced slot
//    holds the same number of indices, so slots of one storage (one byte size) hold
//    the same bytes per index: a reused buffer only ever changes in the slice being
//    computed;
//  - no step can fail at run time (in-place ops and integer division are left out),
//    so a group never stops half-way through its slices.
#pragma once
#include <cstdint>
#include <functional>
#include <span>

#include "ir/ir.h"
#include "vm/fusion.h"
#include "vm/kernels.h"

namespace pir::vm {

// A run of positions [begin, end) in the compiler's flattened op list whose steps
// are computed index by index over their results' first `leadingDims` dims.
struct SlicedRange {
  size_t begin = 0, end = 0;
  int64_t leadingDims = 0;
};

// The sliced groups of `ops` (disjoint, in order): runs of two steps or more, the
// first not elementwise, of ops with `eligible` (the compiler's own conditions, e.g.
// no view slots), large enough for several slices that each stay in cache;
// `const`/`var` in between are skipped.
std::vector<SlicedRange> findSlicedRanges(std::span<const Op* const> ops,
                                          const std::function<bool(const Op&)>& eligible);

// Builds the group of `steps` (vm/fusion.h chainSteps) over `leadingDims` leading
// dims. `keep(slot)` says whether a slot a step writes must be written to memory
// (as for a fused chain); other written slots live in slice buffers. Throws
// KernelError when a step has no kernel for its slice types or the slots break an
// invariant above (the compiler then emits the ops one by one).
FusedChain buildSlicedGroup(std::span<const FusionStep> steps, int64_t leadingDims,
                            const std::function<bool(uint32_t)>& keep);

}  // namespace pir::vm
