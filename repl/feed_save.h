// `pir run FILE --feed NAME=DATA.npy --save NAME=OUT.npy`: data from and to the
// command line, so a script file need not hold its data.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "repl/commands.h"
#include "vm/session.h"

namespace pir::cli {

// Splits `NAME=PATH`; false (with `problem` set) if either side is empty.
bool parseNamedPath(const std::string& text, NamedPath& out, std::string& problem);

// The command line's data around a script: the feeds happen as if
// `feed $NAME = load("DATA.npy")` stood just before the file's first `run`
// (or before the default run), the saves as if `save NAME "OUT.npy"` ended the
// file. Paths are relative to the working directory, as command-line paths are.
class CommandLineData {
 public:
  CommandLineData(vm::Session& session, const Module& module, DiagnosticEngine& diags, std::vector<NamedPath> feeds,
                  std::vector<NamedPath> saves)
      : session_(session), module_(module), diags_(diags), feeds_(std::move(feeds)), saves_(std::move(saves)) {}

  // Called before each command of the script runs: feeds before the first
  // `run`, and notes a command that shows values (print, save). Throws
  // CompileError (reported).
  void beforeCommand(const SessionCommand& cmd);
  // Feeds now unless already done (before the first run, before a default
  // run, or at the end of a file without `run`). Throws CompileError (reported).
  void feedOnce();
  // Writes every --save file. Throws CompileError (reported).
  void saveAll();
  // Whether the file had a session command that shows values (print, save) or
  // the command line a --save.
  bool showsValues() const { return showsValues_ || !saves_.empty(); }

 private:
  vm::Session& session_;
  const Module& module_;
  DiagnosticEngine& diags_;
  std::vector<NamedPath> feeds_, saves_;
  bool fed_ = false;
  bool showsValues_ = false;

  std::string saveTarget(const NamedPath& s) const;
};

}  // namespace pir::cli
