// Diagnostics in the compilers' format of tools.md §2:
//   FILE:LINE:COL: error: MESSAGE
//     the source line
//         ^
//   FILE:LINE:COL: note: MESSAGE
#pragma once
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ir/result.h"
#include "ir/source.h"

namespace pir {

// "who: text", the one way a message gets the name of what it is about (an op, a
// declaration): unless `text` already starts with "who: " (a shared helper that
// names the op it serves), so no message reads "slice: slice: ...".
inline std::string prefixed(std::string_view who, std::string_view text) {
  std::string head(who);
  head += ": ";
  if (text.substr(0, head.size()) == head) return std::string(text);
  return head + std::string(text);
}

enum class Severity { Error, Warning, Note };

// What a warning becomes (tools.md §2): reported and counted (the default), an
// error (`-Werror`: reported as "error: ... [-Werror]" and the input abandoned, as
// for any error), or dropped (`-w`).
enum class WarningPolicy { Report, Error, Ignore };

struct Note {
  SourceLoc loc;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  std::vector<Note> notes;
};

// Thrown to abandon the current input at the first error. The diagnostic has
// already been reported to the engine when this is thrown.
struct CompileError : std::runtime_error {
  Diagnostic diag;
  explicit CompileError(Diagnostic d) : std::runtime_error(d.message), diag(std::move(d)) {}
};

// Runs `body` at a layer's boundary, where its CompileError (already reported)
// becomes a result: LogicalResult for a body returning nothing, FailureOr<T>
// for one returning T.
template <class F>
auto catchReported(F&& body) {
  using T = std::invoke_result_t<F>;
  if constexpr (std::is_void_v<T>) {
    try {
      body();
      return success();
    } catch (const CompileError&) {
      return failure();
    }
  } else {
    try {
      return FailureOr<T>(body());
    } catch (const CompileError&) {
      return FailureOr<T>(failure());
    }
  }
}

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager& sm) : sm_(sm) {}

  // Records and, if a stream is attached, prints the diagnostic at once.
  void report(const Diagnostic& d);
  // Reports a warning under the engine's WarningPolicy; under WarningPolicy::Error
  // it is reported as an error and throws CompileError, like fail().
  void warning(SourceLoc loc, std::string msg, std::vector<Note> notes = {});

  // Reports an error and throws CompileError.
  [[noreturn]] void fail(SourceLoc loc, std::string msg, std::vector<Note> notes = {});

  void setStream(std::ostream* os) { os_ = os; }
  void setWarningPolicy(WarningPolicy p) { warningPolicy_ = p; }
  WarningPolicy warningPolicy() const { return warningPolicy_; }
  std::ostream* stream() const { return os_; }
  int errorCount() const { return errors_; }
  int warningCount() const { return warnings_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  void clear() { diags_.clear(); errors_ = warnings_ = 0; }

  // Formats one diagnostic (with its source line, caret and notes).
  std::string format(const Diagnostic& d) const;
  const SourceManager& sources() const { return sm_; }

 private:
  const SourceManager& sm_;
  std::ostream* os_ = nullptr;
  WarningPolicy warningPolicy_ = WarningPolicy::Report;
  std::vector<Diagnostic> diags_;
  int errors_ = 0, warnings_ = 0;
};

}  // namespace pir
