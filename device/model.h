// The emulated IPU (runtime.md §7), what the device is: tile mapping of every
// device tensor, per-tile memory with liveness, the graph-compile out-of-memory
// check, and the cost of each op's phases. The cycle estimate over a program is
// device/simulator.h; its text and JSON renderings device/report.h.
//
// Memory model. A tile holds, at each point of the program:
//   - always: variables (not remote ones: their home is a remote buffer),
//     constants and literal operands of every graph the program reaches; the
//     code (per op on each tile of its compute set, cost::kVertexBytesPerOp,
//     plus cost::kCodeletBytes once per op kind per tile); one landing area per
//     stream or remote buffer the program uses, mapped like the result of its
//     first IO op;
//   - an intermediate from the op that produces it to its last reader, in
//     program order of its graph (an in-place or view result is its operand's
//     memory). A call, repeat or conditional adds the callee's own peak on each
//     tile to what is live in the caller at that point (a repeat body is counted
//     once: its intermediates die within an iteration; a conditional adds the
//     larger branch per tile). Call results are the caller's tensors, allocated
//     at the call, so the callee's returned values and the call's results are
//     both live at the end of a call (PopART's output copies). Parameters are
//     their arguments' memory.
// A callee's ops run on the call site's IPU and tile set unless they say otherwise.
//
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/result.h"
#include "device/mapping.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir::device {

// The graphs an op calls and their arguments (call, repeat: one; conditional:
// then and else). Every access to a call's callee in the device layer goes
// through here.
struct Callee {
  const Graph* graph = nullptr;
  std::span<const Operand> args;
};
std::vector<Callee> calleesOf(const Op& op);

// One tensor's mapping, for `pir profile --mapping` and the JSON.
struct TensorMappingInfo {
  std::string graph;  // "main" or the subgraph's name
  std::string name;   // "%W", "$x (landing area)", "literal"
  TensorType type;
  TileMapping mapping;
  SourceLoc loc;
};

struct TileUsage {
  int64_t ipu = 0, tile = 0;
  uint64_t peakBytes = 0;        // always-live bytes plus the intermediates' peak
  uint64_t alwaysLiveBytes = 0;  // variables, constants, code, landing areas
};

struct MemoryReport {
  uint64_t tileMemory = 0;
  std::vector<TileUsage> tiles;  // every tile holding bytes, by (ipu, tile)
};

// Per-tile peak memory of the program. Throws CompileError (reported) only
// for a program it cannot analyse (never for an out-of-memory tile).
MemoryReport analyzeMemory(const Module& m, DiagnosticEngine& diags);

// The graph-compile check: if any tile's peak exceeds tile_memory, reports a
// located error naming the tile, the bytes needed and available and the
// largest tensors live there at the peak, and fails (also for a program it
// cannot analyse, reported).
LogicalResult checkDeviceMemory(const Module& m, DiagnosticEngine& diags);

// Every device tensor of the graphs the program reaches, with its mapping.
std::vector<TensorMappingInfo> tensorMappings(const Module& m, DiagnosticEngine& diags);

// Cycles of one op (or a whole run) by phase; saturating.
struct PhaseCycles {
  uint64_t compute = 0, exchange = 0, sync = 0, hostIo = 0;
  uint64_t syncs = 0;
  uint64_t total() const;
  void add(const PhaseCycles& o, uint64_t times);
};
}  // namespace pir::device
