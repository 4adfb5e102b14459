// Verified IR -> bytecode (vm/bytecode.h), once per program version.
//
// Buffer planning: within a subgraph, intermediates get arena buffers by a
// linear scan over program order (regions flattened): a result is allocated
// at its op, and its buffer returns to a free list (by exact byte size) after
// the last op that reads or writes it; a graph's returned values live to the
// end. Results are allocated before the op's dying operands are freed, so an
// op never writes a buffer it reads (in-place ops excepted: their result IS
// operand 0's slot). Main-graph values are kept whole by default: `print %v` and
// the REPL read any of them after a run. Given the names a script's later commands
// read (`pir run`, decisions.md "Run backups and snapshots"), main is planned like
// a subgraph with those values live to the end (SlotInfo::kept).
#pragma once
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/result.h"
#include "vm/bytecode.h"

namespace pir::vm {

struct CompileOptions {
  // Fuse chains of elementwise ops into one blocked pass (vm/fusion.h); off
  // gives one kernel instruction per op (the reference the tests compare with).
  bool fuseElementwise = true;
  // Null: every main value holds its value after a run; else only the values these
  // names resolve to (Graph::lookup, as `print` does) and their storage. Not owned.
  const std::set<std::string>* keptMainNames = nullptr;
};

// Compiles every graph of `m`. failure() (reported to `diags`) when a tensor
// does not fit on the device or an op has no kernel.
FailureOr<std::unique_ptr<Program>> compileProgram(const Module& m, DiagnosticEngine& diags, const CompileOptions& options = {});

// Compiles only the main-graph ops at the positions `include` lists, ascending
// (the preview of a value: its upstream cone), against `p`'s subgraphs and
// variables (the subset has its own constants). Every value is kept (no reuse).
// `givens`: values the subset reads but does not compute (the REPL's earlier
// previews), bound as constants. `variables`: when given, the variables the
// subset reads are listed there (a Var slot's index is its position) instead
// of being looked up in `p`. failure() as compileProgram.
FailureOr<std::unique_ptr<CompiledGraph>> compileMainSubset(const Module& m, const Program& p, const std::vector<size_t>& include,
                                                            DiagnosticEngine& diags,
                                                            const std::vector<std::pair<const Value*, const HostTensor*>>& givens = {},
                                                            std::vector<const Value*>* variables = nullptr,
                                                            const CompileOptions& options = {});

// The operand index an in-place op overwrites (remote_load_ writes operand 2,
// every other F_INPLACE op operand 0); -1 for other ops.
int inplaceTarget(const Op& op);

// DATA or INIT as a tensor of type `t` (language.md §5): a scalar is broadcast,
// a list must match the shape exactly; load("f.npy") must match shape and dtype
// (a different dtype only if every value converts exactly); generators fill with
// vm/random.h. Values out of the dtype's range are errors. `what` names the
// target in diagnostics ("feed $x", "%W").
// `baseSeed` is the IR option `seed` (runtime.md §6). Reports and throws
// CompileError: vm's own unwinding (its callers are the compiler and the
// session, which convert it at their public calls).
HostTensor materialize(const Literal& lit, const TensorType& t, uint32_t baseSeed, std::string_view what,
                       DiagnosticEngine& diags);

}  // namespace pir::vm
