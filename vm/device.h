// Host-side size limits (tools.md §2): a buffer larger than the emulation may
// allocate is an error before any allocation. Device memory itself is checked
// per tile, before compiling, by device::checkDeviceMemory (device/); the
// whole-device check below remains the compiler's guard for tensors that check
// never sees (constants of graphs the program does not call).
#pragma once
#include <cstdint>
#include <string_view>

#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir::vm {

// tiles_per_ipu × tile_memory × ipus bytes (saturating).
uint64_t deviceCapacityBytes(const IrOptions& o);

// Bytes of a tensor of type t, saturating at UINT64_MAX.
uint64_t tensorBytes(const TensorType& t);

// Reports `WHAT: tensor T of N bytes does not fit on the device (C bytes)` at loc
// and throws CompileError when t is larger than the device.
void checkFitsDevice(const TensorType& t, const IrOptions& o, std::string_view what, SourceLoc loc,
                     DiagnosticEngine& diags);

// The same for a host buffer of `copies` tensors of type t; then checks that the
// host buffers declared so far (`total` bytes before this one) stay within the
// host-memory budget (vm/host_memory.h), blaming the declaration that crosses it.
// Returns the new total. Sums are checked (saturating), never wrapped.
uint64_t checkHostBuffer(const TensorType& t, uint64_t copies, const IrOptions& o, std::string_view what,
                         SourceLoc loc, DiagnosticEngine& diags, uint64_t total = 0);

}  // namespace pir::vm
