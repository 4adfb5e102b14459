// Error recovery for `pir check`: several independent errors of a file in one
// run, as compilers report them.
#pragma once
#include <string>

#include "frontend/builder.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace pir {

// The most errors reported before "too many errors" stops the run (clang's default is 20 too).
inline constexpr int kMaxReportedErrors = 20;

// Parses and builds buffer `file` like buildFromBuffer, but goes on after an
// error: a statement or item the builder rejects is skipped (its result names
// are remembered as poisoned, so statements that use them are skipped silently
// instead of cascading; a graph with an error in its body is dropped and its
// name poisoned), and after a syntax error parsing resumes at the next line
// that starts a top-level item (a line that begins in column 1 with neither
// `}` nor `#`). Stops after `maxErrors` errors with "too many errors".
// Returns true if no error was reported. Session commands are checked, not run.
// `autodiff`: as BuildOptions::autodiff.
bool buildWithRecovery(Module& module, DiagnosticEngine& diags, uint32_t file, const std::string& baseDir,
                       int maxErrors = kMaxReportedErrors, AutodiffTransform autodiff = nullptr);

}  // namespace pir
