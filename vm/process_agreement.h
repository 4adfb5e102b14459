// Under MPI every process must run the same program on the same data
// (runtime.md §5: the output is that of one process). What each process reads on
// its own — the program file, files named by load(), feeds — is compared across
// processes where it enters, so a difference is a located error naming it instead
// of replicas computing with different operands, sizes or reduce ops.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "vm/communicator.h"

namespace pir::vm {

// A hash of bytes (not cryptographic: it tells copies of a file apart).
uint64_t hashBytes(const void* data, size_t n, uint64_t seed = 0);

// Compares `m` with every other process's module, statement by statement (how
// it is compiled, ir options, declarations, graph signatures, ops).
// `compiledAs`: the compile options that change the bytecode, in words (a
// collective is known by its instruction index in every process).
// `loadedData(op)`: a hash of the data a var op's load() read (0 for none), so
// that files of the same name with other contents differ too. On a difference,
// every process fails with the same message, at the first statement that
// differs, quoting both versions.
void checkSameProgram(const Module& m, const std::string& compiledAs,
                      const std::function<uint64_t(const Op&)>& loadedData, Communicator& comm, DiagnosticEngine& diags);

// Compares data every process is about to use (`what`: "feed $x") with rank 0's;
// on a difference every process fails at `loc`.
void checkSameData(const void* data, size_t bytes, const std::string& what, SourceLoc loc, Communicator& comm,
                   DiagnosticEngine& diags);

}  // namespace pir::vm
