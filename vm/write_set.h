// The write set of compiled graphs: which variables, remote buffers, d2h streams
// and by-reference params running a graph may write (CompiledGraph::written*),
// read off the bytecode: an instruction writes its nOut result slots
// (vm/bytecode.def), a call / repeat / conditional also writes the argument
// slots its callee writes through by-reference params, remote_store writes its
// buffer and host_store its stream. In-place ops, view write-backs and print's
// copy are all result slots, so nothing that writes escapes the analysis.
#pragma once
#include "vm/bytecode.h"

namespace pir::vm {

// Fills g's write set. Every graph g calls must be in `p` with its write set
// filled already (compile callees first).
void computeWriteSet(CompiledGraph& g, const Program& p);

}  // namespace pir::vm
