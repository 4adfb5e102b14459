// The device model's working state, shared by the model's queries (model.cpp:
// memory, mappings, the out-of-memory check) and the simulator (simulator.cpp):
// each graph's layout per placement (tile mapping of every value, memory owners,
// liveness), the always-live bytes per tile, and the cost of each op's phases
// (exchange, sync, compute, host IO) under device/cost_model.h. It answers what
// the device holds and what one op costs; walking a program over time is the
// simulator's job. Internal to device/.
#pragma once
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "device/cost_model.h"
#include "device/io_ops.h"
#include "device/model.h"
#include "ir/op_attrs.h"
#include "ir/op_work.h"

namespace pir::device::detail {

// ---- op classes ------------------------------------------------------------------

// The cost class is ops.def's Cost column.
inline CostClass costClassOf(OpCode c) { return opInfo(c).costClass; }

inline uint64_t cyclesPerElement(CostClass c) {
  switch (c) {
    case CostClass::Copy: return cost::kCyclesPerElementCopy;
    case CostClass::Transcendental: return cost::kCyclesPerElementTranscendental;
    case CostClass::Reduce: return cost::kCyclesPerElementReduce;
    case CostClass::Normalise: return cost::kCyclesPerElementNormalise;
    case CostClass::Random: return cost::kCyclesPerElementRandom;
    default: return cost::kCyclesPerElementSimple;
  }
}

inline uint64_t macsPerCycle(DType t) {
  if (t == DType::F16) return cost::kMacsPerCycleF16;
  if (t == DType::F32) return cost::kMacsPerCycleF32;
  return cost::kMacsPerCycleOther;
}

// The operand an in-place op overwrites (remote_load_: 2), or -1.
inline int inplaceTarget(const Op& op) { return op.info().inplaceOperand; }  // ops.def: the `!` operand

inline std::string valueLabel(const Value* v) { return "%" + v->name; }

// ---- exchange accounting ------------------------------------------------------------

struct ExchangeAccount {
  const IrOptions& o;
  std::unordered_map<int64_t, uint64_t> sent, received;  // by global tile
  std::unordered_map<int64_t, uint64_t> linkOut, linkIn;  // by IPU, inter-IPU bytes

  explicit ExchangeAccount(const IrOptions& options) : o(options) {}

  void move(int64_t srcIpu, int64_t srcTile, int64_t dstIpu, int64_t dstTile, uint64_t bytes) {
    if (bytes == 0) return;
    int64_t s = globalTile(o, srcIpu, srcTile), d = globalTile(o, dstIpu, dstTile);
    sent[s] = satAdd(sent[s], bytes);
    received[d] = satAdd(received[d], bytes);
    if (srcIpu != dstIpu) {
      linkOut[srcIpu] = satAdd(linkOut[srcIpu], bytes);
      linkIn[dstIpu] = satAdd(linkIn[dstIpu], bytes);
    }
  }

  // Operand element i goes to output element i's tile.
  void aligned(const TileMapping& x, const TileMapping& out) {
    int64_t i = 0, kx = 0, ko = 0;
    while (kx < x.tileCount && ko < out.tileCount) {
      int64_t endX = kx * x.chunk + x.elementsOn(kx), endO = ko * out.chunk + out.elementsOn(ko);
      int64_t end = std::min(endX, endO);
      int64_t tx = x.firstTile + kx, to = out.firstTile + ko;
      if (end > i && !(x.ipu == out.ipu && tx == to))
        move(x.ipu, tx, out.ipu, to, static_cast<uint64_t>(end - i) * static_cast<uint64_t>(x.elementBytes));
      i = end;
      if (endX == end) ++kx;
      if (endO == end) ++ko;
    }
  }

  // Output tile k needs need(k) elements of x; what it holds already stays. The
  // senders broadcast: each of x's tiles sends its bytes at most once.
  template <class NeedFn>
  void gathered(const TileMapping& x, const TileMapping& out, NeedFn need) {
    uint64_t total = 0;
    const uint64_t eb = static_cast<uint64_t>(x.elementBytes);
    for (int64_t k = 0; k < out.tileCount; ++k) {
      const int64_t tile = out.firstTile + k;
      uint64_t bytes = satMul(need(k), eb);
      uint64_t local = x.ipu == out.ipu ? static_cast<uint64_t>(x.elementsOnTile(tile)) * eb : 0;
      uint64_t r = bytes - std::min(bytes, local);
      if (r == 0) continue;
      int64_t d = globalTile(o, out.ipu, tile);
      received[d] = satAdd(received[d], r);
      if (x.ipu != out.ipu) {
        linkOut[x.ipu] = satAdd(linkOut[x.ipu], r);
        linkIn[out.ipu] = satAdd(linkIn[out.ipu], r);
      }
      total = satAdd(total, r);
    }
    if (total == 0) return;
    for (int64_t k = 0; k < x.tileCount; ++k) {
      int64_t s = globalTile(o, x.ipu, x.firstTile + k);
      sent[s] = satAdd(sent[s], std::min(x.bytesOn(k), total));
    }
  }

  uint64_t cycles() const {
    uint64_t tileMax = 0, linkMax = 0;
    for (auto& [t, b] : sent) tileMax = std::max(tileMax, b);
    for (auto& [t, b] : received) tileMax = std::max(tileMax, b);
    for (auto& [i, b] : linkOut) linkMax = std::max(linkMax, b);
    for (auto& [i, b] : linkIn) linkMax = std::max(linkMax, b);
    return std::max(ceilDiv(tileMax, cost::kExchangeBytesPerCycle), ceilDiv(linkMax, cost::kIpuLinkBytesPerCycle));
  }
};

inline uint64_t mulDivCeil(uint64_t a, uint64_t b, uint64_t c) {
  if (c == 0) return 0;
  unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  unsigned __int128 q = (p + c - 1) / c;
  return q > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(q);
}

// ---- per-graph layout --------------------------------------------------------------

struct OpCost {
  PhaseCycles phases;
  std::vector<uint64_t> segments;  // exchange block: IO cycles of each segment
  bool io = false;                 // an IO phase (op or block)
  bool onIoTiles = false;          // that phase runs on the io tiles
  int64_t ipu = 0;
};

struct LayoutOp {
  const Op* op = nullptr;
  const Op* block = nullptr;  // the enclosing exchange block
  PlacementContext ctx;       // placement its results inherit
  std::vector<unsigned> owned;  // value ids whose memory is allocated here
  std::vector<unsigned> dying;  // value ids (memory owners) whose last use is here
  bool costed = false;
  OpCost cost;
};

struct Layout;

// What is live on a tile when a graph's intermediates peak there: the graph's own
// live values at that point, then (when the peak is inside a call) the callee's
// witness. Each layout stores only its own part, so a chain of calls D deep costs
// O(D) memory, not O(D^2).
struct Witness {
  uint64_t bytes = 0;
  std::vector<std::pair<const Value*, uint64_t>> own;
  const Witness* callee = nullptr;  // owned by the callee's layout (stable: unique_ptr)
  const Op* at = nullptr;
  bool done = false;
  // The whole list: own, then the callee's, down the chain.
  std::vector<std::pair<const Value*, uint64_t>> live() const {
    std::vector<std::pair<const Value*, uint64_t>> all;
    for (const Witness* w = this; w; w = w->callee) all.insert(all.end(), w->own.begin(), w->own.end());
    return all;
  }
};

struct Layout {
  const Graph* graph = nullptr;
  PlacementContext ctx;
  std::vector<TileMapping> map;   // by value id
  std::vector<unsigned> root;     // by value id: the memory owner
  std::vector<LayoutOp> ops;      // flattened; a block's ops follow it
  // Memory: the intermediates' peak per global tile (callees included).
  bool peakDone = false, peakActive = false;
  std::unordered_map<int64_t, uint64_t> peak;
  Witness witness;
  // Static cycle estimate (conditional branch choice).
  bool staticCostDone = false, staticCostActive = false;
  uint64_t staticCost = 0;
};

struct StaticTensor {
  std::string graph, name;
  TensorType type;
  TileMapping mapping;
  SourceLoc loc;
};

// One program's device model: built lazily per (graph, IPU, tile set) layout.
// Holds pointers into the module: keep it alive while the model is used.
class Model {
 public:
  Model(const Module& m, DiagnosticEngine& diags) : m_(m), o_(m.options), diags_(diags) {}

  Layout& layout(const Graph* g, PlacementContext ctx);

  Layout& mainLayout() { return layout(m_.main.get(), {}); }

  // The context a callee of `lop` runs in.
  PlacementContext calleeContext(const LayoutOp& lop) const;

  // Every layout reachable from main, each once, callees first (an iterative
  // post-order: calls nest to any depth, the native stack must not).
  std::vector<Layout*> calleesFirst();

  // Peaks and witnesses bottom-up, so that peakOf/witnessOf of a caller finds
  // its callees done and recurses one level only.
  void computePeaks();
  void computeWitnesses(int64_t t);

  // Every layout reachable from main, each once, callers first.
  std::vector<Layout*> reachable();

  // ---- always-live memory ------------------------------------------------------
  void collectStatic();

  const std::vector<StaticTensor>& statics() { return collectStatic(), statics_; }

  // ---- intermediates -----------------------------------------------------------
  const std::unordered_map<int64_t, uint64_t>& peakOf(Layout& l);

  // What is live on global tile `t` when l's intermediates peak there. Linear in
  // the layout's ops: a first pass finds the peak (an owned value or a call), a
  // second replays the allocations up to it and keeps that live set once.
  const Witness& witnessOf(Layout& l, int64_t t);

  const std::unordered_map<int64_t, uint64_t>& alwaysLive() { return collectStatic(), alwaysLive_; }
  const std::unordered_map<int64_t, uint64_t>& code() { return collectStatic(), code_; }
  const std::unordered_map<int64_t, uint64_t>& codeOps() { return collectStatic(), codeOps_; }

  uint64_t bytesOnGlobal(const TileMapping& tm, int64_t t) const;

  // ---- cycles of one op --------------------------------------------------------
  const OpCost& costOf(Layout& l, LayoutOp& lop);

  // Cycles of one execution of l without overlap (to choose a conditional's branch).
  uint64_t staticCost(Layout& l);

  static uint64_t repeatCount(const Op& op);

  std::vector<const TileMapping*> outputMappings(Layout& l, const LayoutOp& lop);

  const TileMapping* operandMapping(Layout& l, const LayoutOp&, const Operand& a);

  const IrOptions& options() const { return o_; }
  const Module& module() const { return m_; }
  DiagnosticEngine& diags() { return diags_; }

  static bool isRemoteVar(const Op& op);

  static uint64_t typeBytes(const TensorType& t);

  // Bytes an IO op moves: a load the resource's tensor; a store, or print_tensor,
  // its last operand.
  static uint64_t ioBytes(const Op& op);

 private:
  static PlacementContext placementContextOfBlock(const Op& block, PlacementContext ctx);

  // Where an IO op's data lands: its own placement over its block's and the context's.
  Placement ioPlacement(const LayoutOp& lop) const { return placementOf(lop.op->attrs, lop.ctx); }

  void addMapping(std::unordered_map<int64_t, uint64_t>& into, const TileMapping& tm, bool);

  void build(Layout& l, const Graph* g, PlacementContext ctx);

  const Module& m_;
  const IrOptions& o_;
  DiagnosticEngine& diags_;
  std::map<std::tuple<const Graph*, int64_t, int>, std::unique_ptr<Layout>> layouts_;
  bool staticDone_ = false;
  std::vector<StaticTensor> statics_;
  std::unordered_map<int64_t, uint64_t> alwaysLive_, code_, codeOps_;
};


// Per-tile peak memory of the program (model.cpp).
MemoryReport memoryOf(Model& model);

}  // namespace pir::device::detail
