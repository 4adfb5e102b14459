// The bulk-synchronous cycle estimate that `pir profile` reports: the program
// walked in order over the model's per-op costs (device/model.h).
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
#include <string>
#include <string_view>
#include <vector>

#include "device/branch_executions.h"
#include "device/model.h"

namespace pir::device {

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
// Fails (reported) for a program it cannot analyse or simulate.
FailureOr<Profile> profileModule(const Module& m, DiagnosticEngine& diags, int64_t runs,
                                 const BranchExecutions* branches = nullptr);
}  // namespace pir::device
