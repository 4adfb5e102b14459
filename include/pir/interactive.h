// An incremental session (docs/api.md "Interactive sessions"): a program that
// grows one input at a time, as the REPL types it, run in one session as it
// grows. Each input (statements, graphs, session commands) is all or nothing;
// a successful one that changed the program or the session can be undone.
// Definitions are echoed with a preview of their value, computed on the host
// within a budget of its own.
//
// Unlike the rest of the API, diagnostics are not returned as text: they are
// written, located, as they are reported, to the `diagnostics` stream, in the
// order they interleave with the output (an interactive tool shows them at
// once). Calls that can fail return false (or nullopt) when they did.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pir/pir.h"

namespace pir::api {

// What one echo preview may spend: its own budget, apart from the session's
// (ContextOptions::maxSteps). A preview that would take more steps, or more
// host memory beyond what the session already holds, is skipped and the echo
// says so. The defaults keep a preview well under a second.
struct PreviewBudget {
  uint64_t maxSteps = uint64_t(1) << 24;
  uint64_t maxBytes = uint64_t(256) << 20;
};

// Whether the text typed so far is a whole input: true while a bracket, brace
// or string is open (the continuation prompt is due). Pieces may be fed one by
// one; each character is examined once.
class InputScanner {
 public:
  InputScanner();
  ~InputScanner();
  InputScanner(const InputScanner&) = delete;
  InputScanner& operator=(const InputScanner&) = delete;
  void feed(std::string_view text);
  bool needsMoreInput() const;
  void reset();
  // Characters examined since construction or reset (tests assert linearity).
  uint64_t charactersScanned() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Calls `visit(name)` (without '%') for every `%name` token of `text` outside
// comments and strings, in order; `text` may end inside a string or comment
// (an open input). Linear; for completing names of an input being typed.
void forEachValueName(std::string_view text, const std::function<void(std::string_view)>& visit);

class Interactive {
 public:
  // `output` receives the echo of each input and what its commands print, when
  // the input succeeds (nothing of a failed input); `diagnostics` receives
  // diagnostics as they are reported. The context (its budgets, threads and
  // warning policy) outlives the session.
  Interactive(Context& context, std::ostream& output, std::ostream& diagnostics, const PreviewBudget& preview = {});
  ~Interactive();
  Interactive(const Interactive&) = delete;
  Interactive& operator=(const Interactive&) = delete;

  // ---- inputs ------------------------------------------------------------------
  // Evaluates `text` as one input: parsed and verified whole into the program
  // (named `<repl>` in diagnostics, its first line numbered `firstLine`), then
  // its session commands run in order. Each definition is echoed to `output`
  // (`%x: f32[2] = [1, 2]  (preview: ...)`, a graph's signature), and each run
  // shows the streams it wrote. On any error the program and the session are
  // as before it and nothing is written to `output`. Blank text is a success
  // that changes nothing.
  bool evaluate(std::string text, uint32_t firstLine);
  // The same for a whole file without echo: `name` locates its diagnostics and
  // relative load()/save paths resolve against `baseDir`.
  bool load(const std::string& name, std::string text, const std::string& baseDir);
  // Runs passes by name (Context::passNames) over the program; all or nothing,
  // undoable. Cached previews are dropped (values were rewritten).
  bool runPasses(const std::vector<std::string>& passes, const std::string& summary);
  // Variables back to their initial values, buffers cleared; undoable.
  bool reset();
  // Undoes the newest input (or passes, or reset) that changed the program or
  // the session; returns its summary (the first line of the input, cut at 120
  // bytes), or nullopt when there is nothing to undo. The history is bounded
  // (100 entries, and at most half the host-memory budget in snapshots).
  std::optional<std::string> undo();

  // Reports an error located in `line`, session line `lineNumber`, at 1-based
  // `column` (a command of the tool that drives this session, e.g. a REPL
  // meta-command): `<repl>:LINE:COL: error: MESSAGE`, the line and a caret.
  void reportError(std::string line, uint32_t lineNumber, uint32_t column, const std::string& message);
  // -Werror / -w for every input from now on.
  void setWarnings(Warnings warnings);

  // ---- reading -----------------------------------------------------------------
  // The type of main-graph value `name` (without '%').
  std::optional<Type> valueType(const std::string& name) const;
  // Stream or remote buffer `name` (without '$').
  std::optional<ResourceInfo> resource(const std::string& name) const;
  // Whether subgraph `name` (without '@') exists ("main" is not a subgraph).
  bool hasGraph(const std::string& name) const;
  // `@g(f32[2], &f32[]) -> (f32[2])`, of a subgraph.
  std::optional<std::string> graphSignature(const std::string& name) const;
  // Subgraph names in definition order; main values (names that resolve,
  // without '%'); streams and remote buffers (without '$').
  std::vector<std::string> graphNames() const;
  std::vector<std::string> valueNames() const;
  std::vector<std::string> resourceNames() const;
  // The canonical text of the program, or of one graph ("main" or a subgraph).
  std::string print(const std::string& graph = "") const;
  // Graphviz DOT of every graph, or of one, as the program stands.
  std::string dot(const std::string& graph = "") const;
  // The VM bytecode of every graph, or of one; the profile of the program with
  // the branches this session's runs took. nullopt: failed (reported).
  std::optional<std::string> disassemble(const std::string& graph = "");
  std::optional<std::string> profile();

  // Work done so far, for tests that assert complexity (no clocks).
  struct Stats {
    uint64_t programCompiles = 0;     // whole-program compiles of the session
    uint64_t previewOpsVisited = 0;   // main ops the previews' backward walks looked at
    uint64_t previewOpsCompiled = 0;  // main ops compiled (and run) for previews
  };
  Stats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pir::api
