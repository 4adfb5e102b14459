// Parsing .pir text (grammar/) into ParseSink events (frontend/ast.h).
#pragma once
#include <string_view>

#include "frontend/ast.h"
#include "ir/diagnostics.h"

namespace pir {

// Parses the whole buffer `file` of `diags.sources()`, streaming items to `sink`.
// On a syntax error reports a located diagnostic ("expected ... ") and throws
// CompileError; errors thrown by the sink propagate unchanged.
// `offset` (a line start) resumes parsing there, for error recovery (frontend/recovery.h).
void parseBuffer(uint32_t file, ast::ParseSink& sink, DiagnosticEngine& diags, size_t offset = 0);

// For the REPL: true when `text` is an incomplete input that more lines could
// complete (unbalanced brackets/braces outside strings and comments, or an
// unterminated string).
bool needsMoreInput(std::string_view text);

}  // namespace pir
