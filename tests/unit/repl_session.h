// A REPL driven line by line, as a test types into it (repl_test, interrupt_test).
#pragma once
#include <sstream>
#include <string>

#include "repl/repl.h"

namespace pir::testing {

struct ReplSession {
  std::ostringstream out, err;
  Repl repl;

  explicit ReplSession(const api::ContextOptions& options = {}, const PreviewBudget& preview = {})
      : repl(out, err, options, preview) {}

  // Feeds the lines of `text`; returns (and clears) what was echoed.
  std::string type(const std::string& text) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) repl.feedLine(line);
    std::string echoed = out.str();
    out.str({});
    return echoed;
  }
  // Returns (and clears) what was written to standard error.
  std::string takeErr() {
    std::string e = err.str();
    err.str({});
    return e;
  }
};

}  // namespace pir::testing
