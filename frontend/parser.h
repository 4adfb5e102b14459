// Parsing .pir text (grammar/) into ParseSink events (frontend/ast.h).
#pragma once
#include <string_view>

#include "frontend/ast.h"
#include "ir/diagnostics.h"

namespace pir {

// Parses the whole buffer `file` of `diags.sources()`, streaming items to `sink`.
// On a syntax error reports a located diagnostic ("expected ... ") and throws
// CompileError; errors thrown by the sink propagate unchanged.
// `offset` (a line start) resumes parsing there, for error recovery (frontend/recovery.h);
// `failedStatementStart`, when given, receives the buffer offset where the
// statement being read when parsing stopped starts.
void parseBuffer(uint32_t file, ast::ParseSink& sink, DiagnosticEngine& diags, size_t offset = 0,
                 size_t* failedStatementStart = nullptr);

// For the REPL: true when `text` is an incomplete input that more lines could
// complete (unbalanced brackets/braces outside strings and comments, or an
// unterminated string).
bool needsMoreInput(std::string_view text);

// needsMoreInput over an input that arrives in pieces (the REPL's lines): the
// scanner keeps its state (bracket depth, inside a string or a comment, a
// pending escape) between pieces, so every character is scanned once and an
// input of N lines costs O(N), not O(N^2). Feeding "a" then "b" answers as
// needsMoreInput("ab").
class InputScanner {
 public:
  void feed(std::string_view text);
  bool needsMoreInput() const { return !overClosed_ && (inString_ || depth_ > 0); }
  void reset() { *this = InputScanner{}; }
  // Characters examined since construction or reset (tests assert linearity).
  uint64_t charactersScanned() const { return scanned_; }

 private:
  int64_t depth_ = 0;
  bool inString_ = false;
  bool escaped_ = false;     // in a string, after a backslash: the next character is skipped
  bool inComment_ = false;   // after `#`, until the end of the line
  bool overClosed_ = false;  // more closers than openers: no further line can fix it
  uint64_t scanned_ = 0;
};

}  // namespace pir
