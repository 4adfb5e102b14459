// The autodiff transform (language.md §9, PopXL popxl.transforms.autodiff).
#pragma once
#include <string>

#include "ir/attr.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir {

// Creates the gradient graph `gradName` of `fwd`:
// - directiveAttrs: `grads_provided` (default: every float output of fwd) and
//   `grads_required` (default: every float input of fwd a gradient can reach);
// - its inputs are `%grad.NAME` for each provided output, then the activations
//   it needs, named like the forward values; its outputs are the gradients of the
//   required inputs, in order; Graph::gradOf / Graph::activations are set;
// - activations that are neither inputs nor outputs of fwd become new outputs
//   of fwd, after the existing ones, and every call of fwd gets the new results;
// - called subgraphs are differentiated first (`NAME_grad`), each once.
// Errors (bad names in the lists, an in-place op, an op without a gradient on a
// path from a required input to a provided output) are reported through
// `diags` at the op or the directive `loc`; the function then returns false and
// the module may hold partial changes (the caller rolls back, as after any
// failed input).
bool autodiff(Module& m, Graph& fwd, const std::string& gradName, const AttrDict& directiveAttrs, SourceLoc loc,
              DiagnosticEngine& diags);

}  // namespace pir
