// Warnings (tools.md §2): programs that are valid but almost certainly not what
// their author meant. Each check reports through DiagnosticEngine::warning, so
// `-w` drops them and `-Werror` makes them errors (which throw CompileError).
#pragma once
#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir {

// In-place writes of subgraph `g` (language.md §7) that nothing observes: the
// written tensor is not a by-reference parameter and nothing reads it (or an
// alias of it) afterwards, returns included. A by-value parameter is named with
// the `&` that would make the write reach the caller. Writes through a callee's
// by-reference parameter (call, repeat) count as in-place writes of the argument.
void warnUnobservedInplaceWrites(const Graph& g, DiagnosticEngine& diags);

// One op on its own: `adam_updater` with a literal step of 0 (operand or
// attribute), whose bias correction divides by 1 - beta^0 = 0.
void warnOpMistakes(const Op& op, DiagnosticEngine& diags);

// d2h streams of which a run writes fewer slots than num_host_transfers (the
// host_stores main executes per run, counted through calls and repeat counts;
// a store under a conditional makes the count unknown and is not warned about):
// the other slots keep the previous run's values.
void warnUnwrittenStreamSlots(const Module& m, DiagnosticEngine& diags);

}  // namespace pir
