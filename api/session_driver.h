// Runs a script (frontend/script.h) on a vm::Session: the session commands a
// parse collected, after the parse, each against the program as defined when it
// was read (language.md §11). Where the front end (frontend/) and the VM (vm/)
// meet, above both; the public API (include/pir/), the `pir` tool and the tests
// run programs through it.
//
// A command read before later definitions runs a copy of the program cut back
// to its point (truncateMainTo on a Module::clone, which keeps value identities,
// so variables carry over between copies). With passes, the session runs a
// transformed copy; the module the builder reads into is never transformed, so
// later statements resolve as written, and `pir run --passes=P FILE` prints what
// `pir run FILE` does for every pass that preserves meaning.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "frontend/builder.h"
#include "vm/session.h"

namespace pir {

// The names (without '%') of the main values the print and save commands of
// `script` read, as they are named in the module (SessionOptions::keptMainNames).
std::set<std::string> mainValuesReadBy(const Script& script);

class SessionDriver {
 public:
  // `mainNamesRead`: the main values the script's commands read
  // (mainValuesReadBy), which the passes keep; when null, build() takes them
  // from the script it parses, and otherwise every main value is kept.
  SessionDriver(Module& source, vm::Session& session, DiagnosticEngine& diags, std::vector<std::string> passes = {},
                bool verifyEach = false, const std::set<std::string>* mainNamesRead = nullptr);
  ~SessionDriver();

  // Parses and verifies buffer `file` whole into the source module, then runs
  // its commands. failure() after a reported error (a parse, verify or run
  // error; ir/result.h).
  LogicalResult build(uint32_t file, const std::string& baseDir);

  // Runs every command of `script` in order, up to the first that fails
  // (reported; the session is as before that command).
  LogicalResult run(const Script& script);
  LogicalResult command(const ScriptCommand& cmd);
  // The default session of a file without commands: `run`, then `print` of
  // every d2h stream (language.md §11). Does nothing if a command ran.
  LogicalResult finish();
  // Points the session back at the source module as it stands (after a
  // command that ran an earlier point or a transformed copy).
  void release();

  bool sawCommand() const { return sawCommand_; }
  // The runs the commands made (a file without commands: 1 after finish()).
  int64_t runs() const { return sawCommand_ ? runs_ : 1; }
  // The main values the passes keep (see the constructor); null: every one.
  const std::set<std::string>* mainNamesRead() const { return mainNamesRead_; }

 private:
  // failure(): the passes failed on the copy (reported).
  LogicalResult syncProgram(const ProgramPoint& point);

  Module& source_;
  vm::Session& session_;
  DiagnosticEngine& diags_;
  std::vector<std::string> passes_;
  bool verifyEach_;
  const std::set<std::string>* mainNamesRead_;  // the script's reads (passes keep them); null: unknown
  std::set<std::string> builtNamesRead_;        // what build() read from its script
  bool sawCommand_ = false;
  int64_t runs_ = 0;
  std::unique_ptr<Module> current_, previous_;  // the copy the session runs, and the one before it
  ProgramPoint currentPoint_;                   // of the source, that current_ was made from
};

}  // namespace pir
