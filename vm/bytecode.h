// The compiled form of a module: one CompiledGraph (bytecode + slot table) per
// graph, plus the constant pool. Produced by vm/compiler.h, run by
// vm/interpreter.h, printed by disassemble().
//
// Slots. Every tensor an instruction touches is a slot: an index into the
// running frame's pointer table. Slot kinds:
//   Arena  - a buffer in the frame's arena (offset planned from liveness);
//   Param  - bound by the caller at each call (by reference, or by value when the
//            callee never writes it); a param the callee writes in place gets its
//            own arena copy (Param with copyOffset);
//   Const  - an entry of Program::constants (literal operands and `const`s);
//   Var    - a main-graph variable, in the replica's session state.
// Operands are resolved to slots at compile time: the interpreter never looks a
// name up.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/op_enums.h"
#include "vm/kernels.h"
#include "vm/tensor.h"

namespace pir::vm {

enum class Opc : uint8_t {
#define PIR_INSN(id, text, sem) id,
#include "vm/bytecode.def"
#undef PIR_INSN
};
const char* opcName(Opc o);

inline constexpr uint32_t kNoSlot = std::numeric_limits<uint32_t>::max();
// Elements an instruction may touch per budget step (Instr::work).
inline constexpr uint64_t kElementsPerStep = 64;

// Counts and indices are 32-bit: an op has fewer than 2^32 operands and results
// (each is an IR object of many bytes, so host memory runs out first), and the
// compiler checks every table index it stores (checkedIndex). A repeat count is
// the full int64 of its attribute.
struct Instr {
  Opc opc = Opc::Kernel;
  // Budget steps one execution costs (Interpreter::setStepBudget): 1, plus one per
  // kElementsPerStep elements read and written (a matmul or convolution: per
  // multiply-add). Shapes are static, so the compiler knows it (workOf).
  uint32_t work = 1;
  uint32_t nIn = 0, nOut = 0;
  uint32_t args = 0;        // first index into CompiledGraph::argSlots/argTypes
  uint32_t a = 0, b = 0, c = 0;
  int64_t count = 0;        // Repeat: iterations
  const Op* op = nullptr;   // the source op (location, trace, errors)
};

struct SlotInfo {
  enum class Kind : uint8_t { Arena, Param, Const, Var };
  Kind kind = Kind::Arena;
  uint64_t offset = 0;      // Arena: arena offset; Param: arena offset of its copy (if copied)
  bool copied = false;      // Param: the callee writes it in place, so it works on a copy
  bool kept = true;         // Arena: holds its value at the end of a run (main: print may read it)
  // Arena: the value lives only in a fused instruction's working memory (vm/fusion.h),
  // which alone reads and writes it; the slot has no storage (offset unused).
  bool inScratch = false;
  uint32_t index = 0;       // Const: CompiledGraph::constants index; Var: Program::variables index; Param: position
  uint64_t bytes = 0;       // storage size
  const Value* value = nullptr;  // the first value mapped here (names in disasm/trace); null for literals
};

// A replica collective (ops.md): its kind and resolved replica group.
struct CollectiveSpec {
  enum class Kind : uint8_t { AllReduce, AllGather, ReduceScatter, Slice };
  using Reduce = CollectiveOp;  // the `op` attribute's enum (ir/op_enums.def)
  Kind kind = Kind::AllReduce;
  Reduce reduce = Reduce::Add;
  int64_t axis = 0;
  bool newAxis = true;  // all_gather output_shape = new_axis
  int64_t stride = 1, groupSize = 1;  // resolved grouping
};

struct CompiledGraph {
  const Graph* graph = nullptr;
  std::string name;                     // "main" or the subgraph name
  std::vector<Instr> code;
  std::vector<uint32_t> argSlots;       // instruction operands, see Instr::args
  std::vector<const TensorType*> argTypes;  // the type each operand use has (views may differ from the slot's first value)
  std::vector<PreparedKernel> kernels;
  std::vector<HostTensor> constants;    // literal operands and `const`s of this graph (immutable)
  std::vector<CollectiveSpec> collectives;
  std::vector<std::string> strings;     // print titles, op names
  std::vector<std::vector<const Op*>> fused;  // Fused instruction b: its ops in program order
  std::vector<SlotInfo> slots;
  std::vector<uint32_t> valueSlot;      // Value::id -> slot (kNoSlot: not compiled, e.g. filtered out)
  std::vector<uint32_t> paramSlots;     // in parameter order
  std::vector<uint32_t> returnSlots;    // in output order
  std::vector<const TensorType*> returnTypes;
  // Per return: true when a call may compute it directly in the caller's result
  // buffer (an arena slot that is no view and is returned once), saving the copy.
  std::vector<bool> returnInPlace;
  // (return j, slot): a slot whose buffer a returnInPlace return j took over at its op
  // (vm/frame_plan.h handedFrom, followed back), so it lives in j's buffer too: a
  // reshape of a fresh result computed in the caller's buffer is then no copy.
  std::vector<std::pair<uint32_t, uint32_t>> returnInPlaceAliases;
  uint64_t arenaBytes = 0;
  size_t maxOperands = 0;               // largest nIn+nOut of a Kernel instruction
  // What running the graph (its callees included) may write outside its own arena
  // (vm/write_set.h): a failed run restores exactly these, and copy-on-write
  // buffers are unshared for exactly these. Sorted, without duplicates.
  std::vector<uint32_t> writtenVars;     // Program::variables indices (main graph only)
  std::vector<uint32_t> writtenRemote;   // remote buffers (resource index)
  std::vector<uint32_t> writtenStreams;  // d2h streams (resource index)
  std::vector<bool> paramWritten;        // by position: a by-reference param written through
};

struct Program {
  // By Graph::index; main is `main`. Shared so that a preview's main subset can
  // call the same compiled subgraphs. Immutable once compiled.
  std::vector<std::shared_ptr<const CompiledGraph>> graphs;
  std::shared_ptr<const CompiledGraph> main;
  std::vector<const Value*> variables;  // main-graph vars in declaration order
  bool hasCollectives = false;          // replicas must run concurrently (barriers)
  size_t mainOpCount = 0;               // Module::main->ops.size() when compiled
  size_t graphCount = 0;
  // The module compiled, when it is a lowered copy of the session's
  // (SessionOptions::lowering): the code's ops and values point into it.
  std::shared_ptr<const Module> lowered;

  const CompiledGraph* find(const Graph* g) const {
    if (g->isMain) return main.get();
    return g->index < graphs.size() ? graphs[g->index].get() : nullptr;
  }
};

// One line per instruction, with slots, value names and `file:line:col`.
std::string disassemble(const CompiledGraph& g, const Program& p, const SourceManager& sm);
std::string disassemble(const Program& p, const SourceManager& sm);  // every graph, subgraphs first

// "file:line:col" of a location ("<unknown>" when invalid).
std::string locationText(const SourceManager& sm, SourceLoc loc);

}  // namespace pir::vm
