// Arena planning of one graph: the slot table of a CompiledGraph (params,
// constants, variables, arena intermediates, views) and every arena slot's
// offset.
//
// Buffer planning (vm/compiler.h has the policy): a linear scan over the
// flattened program order. A result is allocated at its op, and its buffer
// returns to a free list (by exact byte size) after the last op that reads or
// writes it; a graph's returned values, and the main values a later command
// reads, live to the end. Results are allocated before the op's dying operands
// are freed, so an op never writes a buffer it reads, with three exceptions where
// it reads each element before writing it: an in-place op (its result IS operand
// 0's slot), and a plain copy or an elementwise op whose result takes the buffer of
// an operand that dies at it (resultTakesOperandBuffer).
//
// Two phases: `plan` gives every value its slot and lifetime; the emitter then
// decides which values live only inside fused instructions, and `placeArena`
// gives the others their offsets (the scan), those none.
//
// Views (docs/decisions.md "Views"): a view whose element order differs from its
// operand's (transpose_) gets its own slot holding transpose(operand, perm); the
// planner records the link, the emitter (vm/compiler.cpp) keeps it in sync. A use
// of a view is a use of its operand too: it may be refreshed from it or written
// back to it.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "vm/bytecode.h"
#include "vm/compiler.h"
#include "ir/write_analysis.h"
#include "vm/tensor.h"

namespace pir::vm {

// A view slot and how it derives from its operand's.
struct ViewLink {
  uint32_t view = kNoSlot;                  // the view's own slot
  uint32_t source = kNoSlot;                // the operand's slot (itself maybe a view)
  uint32_t root = kNoSlot;                  // the first slot up the chain that is no view
  const Op* op = nullptr;                   // the view op (locations, trace)
  const TensorType* sourceType = nullptr;   // the operand's type
  const TensorType* viewType = nullptr;
  std::vector<int64_t> perm;                // view = transpose(source, perm)
  uint32_t forward = kNoSlot, backward = kNoSlot;  // kernel indices, prepared on first use by the emitter
};

class FramePlanner {
 public:
  // Fills `cg`'s slot table. `p`: the compiled subgraphs and variables; new
  // variables are appended to `addVariables` when given (a whole-program
  // compile), else must exist in `p` already.
  FramePlanner(const Module& m, const Program& p, std::vector<const Value*>* addVariables, DiagnosticEngine& diags,
               WriteAnalysis& writes, const CompileOptions& options, CompiledGraph& cg)
      : m_(m), p_(p), addVariables_(addVariables), diags_(diags), writes_(writes), options_(options), cg_(cg) {}

  // Binds `givens` as constants (before plan: the ops that read them are planned against them).
  void bindGivens(const std::vector<std::pair<const Value*, const HostTensor*>>& givens);

  // Gives the values of `ops`, the flattened ops of `g` in program order, their
  // slots and lifetimes. `reuse`: arena buffers are shared between values whose
  // lifetimes do not overlap (placeArena); else every value keeps its own. `ops`
  // must outlive placeArena.
  void plan(const Graph& g, const std::vector<const Op*>& ops, bool reuse);
  // Marks `slot` (an arena intermediate for which diesWithin held over a fused
  // instruction's range) as living only in that instruction's working memory: it gets
  // no storage. Before placeArena.
  void keepInScratch(uint32_t slot);
  // Gives every planned arena slot not kept in scratch its offset. Once, after plan
  // and the emission that decides what lives in scratch.
  void placeArena();

  // The slot of a value planned already (a located internal error otherwise).
  uint32_t slotOf(const Value* v);
  // The slot an operand reads; a literal becomes a new constant of its literalType.
  uint32_t operandSlot(const Operand& o);
  // A permanent buffer (never shared with live data) for a result nobody reads.
  uint32_t scratchSlot(const TensorType& t);

  // Slot, operand and kernel tables are indexed in 32 bits (vm/bytecode.h): a
  // located error when `size` reaches the limit.
  void checkIndex(size_t size, const char* what);

  // True when `slot` is an arena intermediate first defined at a position in
  // [begin, end), read after its definition, and read by nothing at or after `end`
  // (returns and views included): a fused chain over [begin, end) may keep it in
  // scratch only.
  bool diesWithin(uint32_t slot, size_t begin, size_t end) const;

  std::map<uint32_t, ViewLink>& views() { return views_; }
  // The slot whose buffer `slot` took at its op (resultTakesOperandBuffer: the operand
  // died there, and `slot` holds its bytes or was computed from them in place), or
  // kNoSlot. Known after placeArena.
  uint32_t handedFrom(uint32_t slot) const {
    auto it = handedFrom_.find(slot);
    return it == handedFrom_.end() ? kNoSlot : it->second;
  }
  // Root slot -> the views derived from it.
  const std::unordered_map<uint32_t, std::vector<uint32_t>>& families() const { return families_; }

  // The arena's size so far (slots planned, scratch and copies included).
  uint64_t arenaBytes() const { return arenaTop_; }

 private:
  uint32_t addSlot(const SlotInfo& s);
  uint64_t allocPermanent(uint64_t bytes);
  uint64_t allocate(uint64_t bytes);
  void checkSize(const TensorType& t, const std::string& what, SourceLoc loc);
  void extendTo(uint32_t slot, size_t pos);
  void extendThroughViews(uint32_t slot, size_t pos);
  uint32_t constSlot(HostTensor t, const Value* v);
  uint32_t newArena(const Value* v, size_t pos);
  void assignResults(const Op& op, size_t pos);
  bool defineView(const Op& op, const Value& v, size_t pos);
  uint32_t resultTakesOperandBuffer(const Op& op, const std::vector<uint32_t>& dyingHere) const;

  const Module& m_;
  const Program& p_;
  std::vector<const Value*>* addVariables_;
  DiagnosticEngine& diags_;
  WriteAnalysis& writes_;
  const CompileOptions& options_;
  CompiledGraph& cg_;
  bool reuse_ = true;
  const std::vector<const Op*>* ops_ = nullptr;  // plan's, for placeArena
  uint64_t arenaTop_ = 0;
  std::map<uint64_t, std::vector<uint64_t>> freeList_;
  std::unordered_map<uint32_t, size_t> defAt_, lastUse_;
  std::unordered_map<size_t, std::vector<uint32_t>> definedAt_;
  std::vector<bool> noWrites_;
  std::unordered_map<uint32_t, uint32_t> handedFrom_;  // result slot -> the operand slot whose buffer it took
  std::map<uint32_t, ViewLink> views_;                            // view slot -> link (ordered: deterministic code)
  std::unordered_map<uint32_t, std::vector<uint32_t>> families_;  // root slot -> its views
};

}  // namespace pir::vm
