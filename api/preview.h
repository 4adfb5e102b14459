// The echo previews of an incremental session (pir/interactive.h, tools.md
// §5): the value of a main-graph statement computed on the host as it is
// typed, for its echo. A client of vm::Session's
// public API: it reads the session's program, variables and state version,
// and runs the needed ops on an interpreter of its own; it changes nothing in
// the session (print_tensor output is discarded).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "pir/interactive.h"
#include "vm/session.h"
#include "vm/tensor.h"

namespace pir {

// What one preview may spend (pir/interactive.h).
using api::PreviewBudget;

// A preview's outcome: the value, or why there is none.
struct Preview {
  std::optional<vm::HostTensor> value;
  // Empty when the value is computed or depends on the device (a stream, a
  // remote buffer, a collective), which only `run` computes; else what stopped
  // the preview ("interrupted", the budget, a fault), for the echo.
  std::string skipped;
};

class Previewer {
 public:
  Previewer(vm::Session& session, DiagnosticEngine& diags, PreviewBudget budget = {});
  ~Previewer();
  Previewer(const Previewer&) = delete;
  Previewer& operator=(const Previewer&) = delete;

  // The value of main-graph value `v` computed from constants and variables
  // alone (nothing upstream reads a stream or remote buffer, and no
  // collective), for replica 0. Ctrl-C stops the preview, not the input: the
  // interrupt is consumed and the preview is skipped.
  //
  // Incremental, for the echo of every definition: previews are cached by
  // Value::uid (up to kCacheBytes), and a preview evaluates only the ops
  // upstream of `v` back to cached values, against the bytecode of the
  // subgraphs it calls; it compiles the whole program only when its cone calls
  // a subgraph. The cache is dropped when the session's state changes (its
  // stateVersion: run, write, reset, restore, another module) and when an op
  // that writes a value in place is added to main.
  Preview preview(const Value& v);
  // Drops cached previews (after the program was transformed, e.g. by passes).
  void forget();
  static constexpr uint64_t kCacheBytes = 64ull << 20;

  // Work counters, for tests that assert complexity rather than time.
  struct Counters {
    uint64_t opsVisited = 0;   // main ops the previews' backward walks looked at
    uint64_t opsCompiled = 0;  // main ops compiled (and run) for previews
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Cache;
  vm::Session& session_;
  DiagnosticEngine& diags_;
  PreviewBudget budget_;
  std::unique_ptr<Cache> cache_;
  uint64_t stateVersion_ = 0;  // of the session, when the cache was last valid
  Counters counters_;
};

}  // namespace pir
