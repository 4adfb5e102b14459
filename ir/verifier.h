// The verifier: every rule of language.md and ops.md, in one place. The
// builder (frontend/builder.cpp) resolves names and calls these checks as each
// statement arrives; verifyModule runs the same checks over a whole module
// (parsed or transformed), so both report the same located diagnostics.
//
// Every check reports the first problem as a located error naming the op
// ("add: ...") through DiagnosticEngine::fail, which throws CompileError.
#pragma once
#include <span>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/result.h"

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

// IR options (runtime.md §1): the keys, in `ir {}` order, with their ranges.
struct IrOptionKey {
  std::string_view key;
  int64_t IrOptions::*field;
  int64_t lo, hi;
};
std::span<const IrOptionKey> irOptionKeys();
// Ranges of every key and io_tiles < tiles_per_ipu; `valueLocs[k]` locates key k.
void checkIrOptions(const IrOptions& options, DiagnosticEngine& diags);

// A `var`/`const` declaration in `g` (language.md §5, runtime.md §3): var only
// in main, placement (and var) attributes, generators only for var, replica
// grouping, remote home, a load() file that exists, the literal against the
// declared (grouped) type. `loc` is the declaration's, `name` without '%'.
// `loadMayAppear`: the load() file is one that a command read earlier in the
// same text saves, so it is written only when the script runs, after the
// parse; the VM reads and checks it at first use.
void checkDeclaration(const Module& m, const Graph& g, bool isConst, const std::string& name, const TensorType& type,
                      const AttrDict& attrs, const Literal* init, SourceLoc loc, DiagnosticEngine& diags,
                      bool loadMayAppear = false);

// In-place writes (language.md §7): never to a constant or literal, directly
// or through a callee that writes its by-reference input.
void checkInplaceWrites(const Op& op, DiagnosticEngine& diags);

// A remote variable (`remote = $b, offset = k`) lives in entry k of $b: no op
// reads or writes it as an operand, the program moves it with remote_load /
// remote_store (as PopXL, where a remote variable has no device tensor). The
// error's note shows the load to write.
void checkRemoteVariableOperands(const Op& op, DiagnosticEngine& diags);

// An exchange block (language.md §8): placement attributes, IO ops only, no op
// consuming a value produced inside the same block.
void checkExchangeBlock(const Op& block, const IrOptions& options, DiagnosticEngine& diags);

// A subgraph's returns against its output types (literals typed by them).
void checkReturns(const Graph& g, DiagnosticEngine& diags);

// grad_of / activations of a gradient graph refer to a graph of `m` and its values.
void checkGradientAttributes(const Module& m, const Graph& g, DiagnosticEngine& diags);

// Re-checks a whole module: per-op signatures and types against the recorded
// result types, literal types, scoping (operands defined earlier in the same
// graph), call bindings, returns against output types, in-place writes to
// constants, exchange blocks, var placement in main. Reports the first error
// and returns failure() (ir/result.h); success() when the module is valid.
LogicalResult verifyModule(const Module& module, DiagnosticEngine& diags);

}  // namespace pir
