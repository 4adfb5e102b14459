// Graphviz DOT of a program's graphs (tools.md `pir dot`, PopXL
// ir.dot_checkpoint): each graph a cluster; ops as boxes (variables as
// cylinders, constants as notes); graph inputs and the return as ellipses;
// streams and remote buffers as nodes outside the clusters; tensors as edges
// labelled `%name: type`; calls, repeats and conditionals as dashed edges into
// the callee's cluster (or to an `@callee` node when only one graph is drawn);
// exchange blocks as nested clusters.
#pragma once
#include <string>

#include "ir/ir.h"

namespace pir::device {

// All graphs (subgraphs in definition order, then main), or only `only`.
std::string dotOfModule(const Module& m, const Graph* only = nullptr);

}  // namespace pir::device
