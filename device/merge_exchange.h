// The merge-exchange transformation (tools.md passes; PopXL merge_exchange):
// in every graph, a run of two or more consecutive IO ops (host_load,
// host_store, remote_load, remote_load_, remote_store) with no other op
// between them and no data dependency among them becomes one `exchange {}`
// block. A dependency ends the run: an op reading a value produced or written
// in place by an earlier op of the run, or writing in place a value an earlier
// op of the run reads. Only ops with the same placement attributes are grouped.
// Existing exchange blocks are left as they are. The program's results are
// unchanged: a block runs its ops in order (language.md §8); the cycle estimate
// drops by one sync and one IO latency per merged op (per segment). Blocks are
// made with the IR mutation API (ir/rewriter.h wrapInExchange), so the change
// is journaled (undoable in the REPL) and bumps the module's generation.
#pragma once
#include <cstddef>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/result.h"

namespace pir::device {

// The pass: success() (it cannot fail on a verified module).
LogicalResult mergeExchange(Module& m, DiagnosticEngine& diags);

// The same transformation; returns the number of exchange blocks it formed.
size_t mergeExchangeBlocks(Module& m);

}  // namespace pir::device
