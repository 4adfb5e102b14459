// Every constant of the emulated device's memory and cycle model (runtime.md §7),
// in one place. The figures are integers so that an estimate is exact and the
// same on every machine; docs/decisions.md ("Device cost model") gives the
// public figures behind each one. The model is that of a Mk2 GC200 IPU.
#pragma once
#include <cstdint>

namespace pir::device::cost {

// ---- clock and threads --------------------------------------------------------
// GC200 clock: 1.33 GHz. Cycles are converted to microseconds with it.
inline constexpr uint64_t kClockHz = 1'330'000'000;
// Worker threads per tile (barrel-scheduled): a tile's work is split over them.
inline constexpr uint64_t kWorkerThreads = 6;

// ---- tile mapping --------------------------------------------------------------
// mapTensorLinearly's grain: at least 16 bytes' worth of elements per tile
// (one 128-bit load/store), and chunks are whole grains.
inline constexpr uint64_t kGrainBytes = 16;

// ---- memory: code and landing areas ---------------------------------------------
// Code of one vertex type (one op code) on a tile, once per tile that runs it.
inline constexpr uint64_t kCodeletBytes = 512;
// Per op, on every tile of its compute set: vertex state plus the supervisor's
// control code for that compute set.
inline constexpr uint64_t kVertexBytesPerOp = 32;
// A stream or remote buffer the program uses has one landing area of its
// element type (the host/streaming-memory copy target), always live.

// ---- compute ---------------------------------------------------------------------
// Cycles a compute set costs on a tile before any element (vertex launch,
// supervisor dispatch to the workers).
inline constexpr uint64_t kComputeSetOverheadCycles = 50;
// Tile cycles one worker spends per element, by op class (ops of ir/ops.def map
// to a class in device/tile_model.h: costClassOf).
inline constexpr uint64_t kCyclesPerElementCopy = 3;            // copies, shape ops, gathers, fills
inline constexpr uint64_t kCyclesPerElementSimple = 6;          // add, mul, compare, relu, where, updates
inline constexpr uint64_t kCyclesPerElementTranscendental = 30; // exp, log, tanh, div, sqrt, pow, adam, ...
inline constexpr uint64_t kCyclesPerElementReduce = 6;          // per INPUT element of a reduction
inline constexpr uint64_t kCyclesPerElementNormalise = 36;      // softmax, layer/group/batch norm, nll_loss
inline constexpr uint64_t kCyclesPerElementRandom = 18;         // Philox draws, dropout
// Matmul and convolution run on the tile's AMP unit, shared by the workers:
// multiply-accumulates per cycle per tile.
inline constexpr uint64_t kMacsPerCycleF16 = 64;
inline constexpr uint64_t kMacsPerCycleF32 = 16;
inline constexpr uint64_t kMacsPerCycleOther = 6;  // integers and f64: one MAC per worker per cycle

// ---- exchange and sync -----------------------------------------------------------
// Bytes a tile sends (or receives) per cycle in an on-chip exchange phase.
inline constexpr uint64_t kExchangeBytesPerCycle = 4;
// Bytes per cycle over all IPU-Links of one IPU (inter-IPU copies, collectives).
inline constexpr uint64_t kIpuLinkBytesPerCycle = 240;
// One sync (BSP barrier) on one IPU, and over several IPUs.
inline constexpr uint64_t kSyncCycles = 150;
inline constexpr uint64_t kMultiIpuSyncCycles = 1500;

// ---- host and remote IO ----------------------------------------------------------
// host_load / host_store / print_tensor: fixed latency plus bytes over the host link.
inline constexpr uint64_t kHostLatencyCycles = 2000;
inline constexpr uint64_t kHostBytesPerCycle = 16;
// remote_load / remote_store: streaming memory behind the gateway.
inline constexpr uint64_t kRemoteLatencyCycles = 1000;
inline constexpr uint64_t kRemoteBytesPerCycle = 8;

// ---- profile limits ----------------------------------------------------------------
// The profile simulates two iterations of a repeat and extrapolates the rest;
// calls are expanded. A program whose expansion exceeds this many op
// executions (calls nested many levels deep) is reported, not simulated.
inline constexpr uint64_t kMaxSimulatedOps = 5'000'000;
// Slices written to a --timeline trace; later phases are summarised.
inline constexpr uint64_t kMaxTimelineSlices = 200'000;

}  // namespace pir::device::cost
