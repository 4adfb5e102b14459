// Result-type inference: the `Infer` column of ir/ops.def (ops.md).
//
// inferResultTypes assumes the op's signature was checked (ir/verifier.h:
// arity, operand kinds, attribute types) and literal operands were typed; it
// checks everything that depends on operand types (dtypes, broadcasting, axes,
// permutations, sizes, graph-call bindings) and reports the first problem as a
// located error "OPNAME: ..." through DiagnosticEngine::fail (throws CompileError).
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/grouping.h"
#include "ir/ir.h"

namespace pir {

// Appends the types of all results `op` produces (for an in-place op: the one
// alias result; host_store/remote_store: none; split: one per split; ...).
// `out` is cleared first. `options` gives the replication the collectives use.
void inferResultTypes(const Op& op, const IrOptions& options, std::vector<TensorType>& out,
                      DiagnosticEngine& diags);

// The number of results the op produces, from its attributes and callee
// (split: len(splits); topk: 2; split_random_seed: n; call: callee outputs).
// Valid only after the signature check; used before inference to size names.
size_t resultCount(const Op& op);

// The attribute `key` of `op`: the written value, else the spec default.
// nullptr when absent with no default, or written as `none` for an optional key.
// Code that reads a known attribute uses the typed accessors of ir/op_attrs.h
// (checked against ops.def at compile time); this string-keyed form is for names
// taken from the table itself (a result count's attribute) or from data.
const Attr* findAttrOrDefault(const Op& op, std::string_view key);

// The operand index an in-place op writes: 0, or 2 for remote_load_ (which loads
// into its third operand). -1 for ops that are not in place.
int inplaceOperandIndex(OpCode code);
// The value an in-place write through `v` lands on: follows results that alias
// the operand their in-place op writes. Returns `v` itself if it is not such a result.
const Value* aliasRoot(const Value* v);

// NumPy broadcasting of two shapes; nullopt when they do not broadcast.
std::optional<Shape> broadcastShapes(const Shape& a, const Shape& b);

// The axis permutation of a transpose / transpose_ op whose operand has `rank`
// axes: its perm with negative axes counted from the end, or the reversed axes
// when absent. nullopt when that is not a permutation of the axes.
std::optional<std::vector<int64_t>> transposePerm(const Op& op, int64_t rank);

// Integer list attribute values: a list/tuple of ints, or a single int as [n].
// Returns false when `a` is not of that form.
bool attrInts(const Attr& a, std::vector<int64_t>& out);


}  // namespace pir
