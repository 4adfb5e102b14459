// The canonical printer (language.md §10): IR back to .pir text.
//
// Guarantees: the output parses back to the same program, and printing is a
// fixed point (print(parse(print(m))) == print(m)). Comments, session commands,
// autodiff directives and `as`/`using` labels are not printed; every type,
// graph output list and result name (generated ones included) is.
#pragma once
#include <string>

#include "ir/ir.h"

namespace pir {

// The whole module: `ir {...}` (non-default keys only), declarations in
// declaration order, subgraphs in definition order, then `main { ... }`.
std::string printModule(const Module& module);

// One graph: `graph @g(...) -> (...) {...}` or `main {...}` (REPL `:print @g`).
std::string printGraph(const Module& module, const Graph& graph);

// One op as it prints in its graph, without indentation (an exchange block with
// its body).
std::string printOp(const Op& op);

// Appends the canonical text of pieces, for tools that print fragments
// (REPL echo, diagnostics). `dtype` is the element type the literal's numbers
// are read in.
void appendLiteral(std::string& out, const Literal& literal, DType dtype);
void appendAttr(std::string& out, const Attr& attr);

}  // namespace pir
