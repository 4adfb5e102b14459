// The interactive REPL (tools.md §5) as a library: the loop in runRepl is thin
// over the Repl class, which tests drive line by line.
//
// One front end for files and the REPL: every input becomes a SourceBuffer
// named `<repl>` whose firstLine is the session line it started on, is parsed
// into the session's one Builder and runs in its one vm::Session. Before each
// input the REPL takes Module::checkpoint() and a session snapshot; an input
// that fails (parse, verify or runtime error) is undone completely.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"
#include "ir/version.h"
#include "repl/line_editor.h"
#include "repl/preview.h"
#include "vm/session.h"

namespace pir {

class Repl {
 public:
  // `out` receives the echo, printed values and meta-command output; `err`
  // receives diagnostics and error messages.
  // `session`: the session's budgets and threads (fuzzing sets a step budget
  // and one thread; the defaults are `pir run`'s).
  // `preview`: the budget of each echo preview (repl/preview.h).
  explicit Repl(std::ostream& out, std::ostream& err, const vm::SessionOptions& session = {},
                const PreviewBudget& preview = {});
  ~Repl();
  Repl(const Repl&) = delete;
  Repl& operator=(const Repl&) = delete;

  // One physical line, as typed (without its newline). Lines accumulate until
  // brackets and braces balance (needsMoreInput), then the input is evaluated.
  // A line starting with `:` outside an open input is a meta-command.
  void feedLine(std::string_view line);
  void feedLine(std::string&& line);  // the same, taking the line's buffer over
  void feedLine(const char* line) { feedLine(std::string_view(line)); }
  // True while an input is open (the continuation prompt `...> ` is due).
  bool inputOpen() const;
  // Ctrl-C: drops the open input, if any.
  void abandonInput();
  // End of input: an open input is evaluated as it stands (and so fails).
  void finish();

  // Loads FILE as one input, as if typed but without echo (`pir repl FILE`,
  // `:load`). Locations name the file; relative paths resolve against its
  // directory. FILE "-" reads all of `in`. Returns 0 when loaded, 1 when it
  // had errors (reported; nothing of it is kept), 2 when it cannot be read.
  int loadFile(const std::string& path, std::istream& in);

  // -Werror / -w for every input from now on (tools.md §2).
  void setWarningPolicy(WarningPolicy policy);

  bool quitRequested() const;
  bool anyInputFailed() const;
  int exitStatus() const { return anyInputFailed() ? 1 : 0; }

  // Tab completion for the line before the cursor: meta-commands after a
  // leading `:`, main-graph `%` names, `@` graphs, `$` resources, and op names,
  // keywords and dtypes for bare words.
  Completion complete(std::string_view lineBeforeCursor) const;

  const Module& module() const;

  // Work done so far, for tests that assert complexity (no clocks): input
  // characters examined by the completeness scan, the session's compiles
  // (vm::Session::Counters) and the previews' work (Previewer::Counters).
  struct Stats {
    uint64_t charactersScanned = 0;
    uint64_t programCompiles = 0;
    uint64_t previewOpsVisited = 0;
    uint64_t previewOpsCompiled = 0;
  };
  Stats stats() const;

  // The meta-command names, without `:`, in :help order.
  static const std::vector<std::string>& metaCommandNames();
  // Resolves a typed meta-command word (without `:`): an exact name, or a
  // prefix of exactly one name. Otherwise nullopt and, in `candidates`, the
  // names it is a prefix of (empty: unknown; several: ambiguous).
  static std::optional<std::string> resolveMetaCommand(std::string_view word, std::vector<std::string>* candidates = nullptr);

  static constexpr const char* kPrompt = "pir> ";
  static constexpr const char* kContinuationPrompt = "...> ";
  static constexpr const char* kBanner = "pir " PIR_VERSION " - type :help for help";

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct ReplRunOptions {
  std::optional<std::string> file;  // loaded first, without echo
  bool interactive = false;         // prompt, banner, line editing (stdin is a terminal)
  std::string historyPath;          // "" : no persistent history
  vm::SessionOptions session;       // budgets (--max-steps)
  WarningPolicy warnings = WarningPolicy::Report;  // -Werror / -w
  PreviewBudget preview;            // each echo preview's (--preview-steps)
};

// The REPL loop. Interactive: libedit on the terminal; otherwise transcript
// mode reads lines from `in` with no prompt. Returns the exit status: 1 if any
// input failed, else 0; 2 if FILE cannot be read.
int runRepl(const ReplRunOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

// `~/.pir_history`, honouring $HOME; "" when HOME is unset.
std::string defaultHistoryPath();

}  // namespace pir
