// The verifier: per-op checks used incrementally by the builder
// (frontend/builder.cpp) and a whole-module re-check for passes.
//
// Every check reports the first problem as a located error naming the op
// ("add: ...") through DiagnosticEngine::fail, which throws CompileError.
#pragma once
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir {

// Arity, operand kinds (tensor / resource / graph call per position) and
// attributes: unknown key, wrong type, bad enum value, required key missing.
// Placement attributes (ipu, tile_set, tile, tiles) are accepted on every op.
void checkOpSignature(const Op& op, const IrOptions& options, DiagnosticEngine& diags);

// Checks a placement/attribute dictionary that allows only placement keys plus
// `extra` (used for var/const and exchange blocks). `what` names the item.
void checkPlacementAttrs(const AttrDict& attrs, std::string_view what, const IrOptions& options,
                         DiagnosticEngine& diags, const OpInfo* extra = nullptr);

// Types the literal operands of `op` (language.md §5): the dtype of the op's
// first tensor operand; index/offset/seed/condition positions have fixed dtypes
// (i32, u32, bool); a graph-call argument takes the bound parameter's type.
// Sets Operand::literalType and checks the literal's data fits that type.
// All-literal ops fail with "cannot infer the dtype: declare a const".
void typeLiteralOperands(Op& op, DiagnosticEngine& diags);

// Signature + literal typing + result-type inference (ir/infer.h).
void verifyOp(Op& op, const IrOptions& options, std::vector<TensorType>& resultTypes, DiagnosticEngine& diags);

// Checks literal data against the tensor type it initialises: a scalar
// (broadcast) or exact nesting shape, bool literals only for bool, values in
// range (integral for integer dtypes). `what` names the declaration/op for
// the message. A load(...) literal is not read here.
void checkLiteralData(const Literal& lit, const TensorType& type, std::string_view what, DiagnosticEngine& diags);

// The warning for a declaration written with i64/u64 (stored as `stored`):
// "i64 is stored as i32 (PopXL downcast)".
std::string downcastWarning(DType stored);

// Re-checks a whole module: per-op signatures and types against the recorded
// result types, literal types, scoping (operands defined earlier in the same
// graph), call bindings, returns against output types, in-place writes to
// constants, exchange blocks, var placement in main. Reports the first error
// and returns false; true when the module is valid.
bool verifyModule(const Module& module, DiagnosticEngine& diags);

}  // namespace pir
