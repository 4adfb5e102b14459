// The one way a library call below the public API says whether it worked, in
// the manner of mlir::LogicalResult / llvm::Expected: what went wrong has
// already been reported to the DiagnosticEngine the call was given (located,
// with notes); the result carries only success, or success and a value.
//
// Parsing and building (buildFromBuffer), verifying (verifyModule), passes and
// pipelines (PassFn, runPipeline, runPasses) return one. Inside a layer an
// error may still unwind as CompileError (DiagnosticEngine::fail), but each of
// these entry points catches it and returns failure(): no CompileError leaves
// them. An internal invariant break is not a failure of the input and is
// reported by internalError() (ir/internal_error.h) instead.
//
// The public API (include/pir/pir.h) mirrors this with Status / Result<T>,
// which carry the diagnostics text itself (docs/api.md "Errors").
#pragma once
#include <optional>
#include <utility>

namespace pir {

class [[nodiscard]] LogicalResult {
 public:
  static LogicalResult success() { return LogicalResult(true); }
  static LogicalResult failure() { return LogicalResult(false); }
  bool succeeded() const { return ok_; }
  bool failed() const { return !ok_; }
  explicit operator bool() const { return ok_; }

 private:
  explicit LogicalResult(bool ok) : ok_(ok) {}
  bool ok_;
};

inline LogicalResult success() { return LogicalResult::success(); }
inline LogicalResult failure() { return LogicalResult::failure(); }
// success() when `ok`: for a call whose own parts answer in bool.
inline LogicalResult successIf(bool ok) { return ok ? success() : failure(); }

// A value, or failure (reported already).
template <class T>
class [[nodiscard]] FailureOr {
 public:
  FailureOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit, as std::expected
  FailureOr(LogicalResult) {}                        // NOLINT: failure() converts (no value: failed)
  bool succeeded() const { return value_.has_value(); }
  bool failed() const { return !value_.has_value(); }
  explicit operator bool() const { return succeeded(); }
  operator LogicalResult() const { return succeeded() ? success() : failure(); }  // NOLINT
  // Precondition: succeeded().
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T& operator*() { return *value_; }
  T* operator->() { return &*value_; }

 private:
  std::optional<T> value_;
};

}  // namespace pir
