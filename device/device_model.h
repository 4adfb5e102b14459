// The emulated IPU (runtime.md §7) over the IR: tile mapping of every device
// tensor, per-tile memory with liveness, the graph-compile out-of-memory check,
// and the bulk-synchronous cycle estimate that `pir profile` reports.
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
// Cycle model (per replica, for one execution of the main graph). Per op in
// program order, calls expanded, a repeat body costing `count` iterations:
//   - exchange: operand elements that are not on the tile (and IPU) of the output
//     elements that need them are moved. An operand with as many elements as the
//     output is element-aligned (element i goes to output element i's tile); a
//     matmul output tile needs the rows of A and columns of B it covers; any other
//     operand is needed in proportion (a tile holding o of the output's N elements
//     needs min(n, o) elements of a smaller operand of n elements, n*o/N of a
//     larger one). The phase costs max over tiles of the bytes a tile sends or
//     receives / cost::kExchangeBytesPerCycle, or the bytes an IPU sends or
//     receives over IPU-Links / cost::kIpuLinkBytesPerCycle if that is more;
//   - a sync (cost::kSyncCycles; cost::kMultiIpuSyncCycles when ipus > 1);
//   - compute on the tiles of the op's outputs: the busiest tile's
//     overhead + ceil(work / 6 workers) * cycles per element of the op's class
//     (matmul/conv: multiply-accumulates / the AMP rate).
//   - IO ops (host_load, host_store, remote_*, print_tensor) are one sync plus a
//     host IO phase: latency + bytes / rate. An exchange block is one sync plus
//     one IO phase per segment (a new segment starts where a (stream or buffer,
//     direction) pair repeats): the segment's largest latency + the bytes of each
//     link / its rate.
//   - An IO phase on io tiles (io_tiles > 0; `tile_set = io` on the op or its
//     exchange block) overlaps the compute phases that follow it (runtime.md §7):
//     it progresses only while the compute tiles compute, not during exchange or
//     sync phases (which involve every tile), and the IO op's own syncs are on the
//     clock. The clock waits, idle, for what is left of it at the first op that
//     reads what it loaded (a call waits for its arguments). IO phases on the io
//     tiles queue one after the other.
//   - A conditional costs the branches the session ran (BranchExecutions), each
//     with its share of the conditional's executions (rounded; the clock follows
//     the branch that ran more); without that record, the branch with the larger
//     estimate.
//   - A repeat simulates two iterations and extrapolates the rest from the
//     second (the per-op and per-kind totals are exact: count x the body).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "device/branch_executions.h"
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
// largest tensors live there at the peak, and throws CompileError.
void checkDeviceMemory(const Module& m, DiagnosticEngine& diags);

// Every device tensor of the graphs the program reaches, with its mapping.
std::vector<TensorMappingInfo> tensorMappings(const Module& m, DiagnosticEngine& diags);

struct PhaseCycles {
  uint64_t compute = 0, exchange = 0, sync = 0, hostIo = 0;
  uint64_t syncs = 0;
  uint64_t total() const;
  void add(const PhaseCycles& o, uint64_t times);
};

struct OpProfile {
  const Op* op = nullptr;
  std::string graph;
  uint64_t executions = 0;
  PhaseCycles cycles;
};

enum class PhaseKind : uint8_t { Compute, Exchange, Sync, HostIo, HostIoOnIoTiles, Repeat };
std::string_view phaseKindName(PhaseKind k);

struct TimelineSlice {
  int64_t ipu = 0;
  PhaseKind kind = PhaseKind::Compute;
  std::string name;
  uint64_t start = 0, duration = 0;  // cycles
};

struct Profile {
  IrOptions options;
  int64_t runs = 0;          // runs the session executed
  MemoryReport memory;
  PhaseCycles totals;        // per run, summed over phases
  uint64_t elapsedCycles = 0;  // per run, with io-tile IO overlapped
  std::vector<OpProfile> ops;  // executed ops, in order of first execution
  std::vector<TensorMappingInfo> mappings;
  std::vector<TimelineSlice> timeline;
  bool timelineTruncated = false;
};

// Memory, cycles and mappings of the program (one run); `runs` is recorded.
// The profile points into `m` (its ops): keep `m` alive while it is used.
// `branches`: what the session's conditionals ran; a conditional found there is
// costed as it ran (each branch with its share of the executions), one not found
// (never run, or no session) by its costlier branch.
Profile profileModule(const Module& m, DiagnosticEngine& diags, int64_t runs,
                      const BranchExecutions* branches = nullptr);

// Human-readable report (tools.md: `pir profile`); with `mapping`, the tile
// mapping of every tensor too.
std::string formatProfile(const Profile& p, const SourceManager& sources, bool mapping);
// JSON, schema in docs/profile-schema.md.
std::string profileJson(const Profile& p, const SourceManager& sources);
// Chrome trace-event JSON of the timeline (timestamps in µs at cost::kClockHz).
std::string timelineJson(const Profile& p);

// "FILE:LINE:COL" of a location ("" when it has none).
std::string locationText(const SourceManager& sources, SourceLoc loc);

}  // namespace pir::device
