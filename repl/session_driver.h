// The driver of a session (tools.md §1 `run`, the tests): hands each session
// command to a vm::Session as the front end reads it, so a command runs the
// program as defined up to that point (language.md §11). The script is not
// part of the Module; this is where the front end (frontend/) and the VM (vm/)
// meet, above both.
//
// With passes, the session runs a transformed copy of that program (a
// Module::clone keeps value identities, so variables carry over between
// copies); the module the builder reads into is never transformed, so later
// statements resolve as written, and `pir run --passes=P FILE` prints what
// `pir run FILE` does for every pass that preserves meaning.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "frontend/builder.h"
#include "vm/session.h"

namespace pir::cli {

class SessionDriver final : public BuildListener {
 public:
  SessionDriver(Module& source, vm::Session& session, DiagnosticEngine& diags,
                std::vector<std::string> passes = {}, bool verifyEach = false,
                const std::set<std::string>* mainNamesRead = nullptr);

  void command(const SessionCommand& cmd) override;
  // The default session of a file without commands: `run`, then `print` of
  // every d2h stream (language.md §11). Does nothing if a command was read.
  void finish();
  bool sawCommand() const { return sawCommand_; }

 private:
  void syncProgram();

  Module& source_;
  vm::Session& session_;
  DiagnosticEngine& diags_;
  std::vector<std::string> passes_;
  bool verifyEach_;
  const std::set<std::string>* mainNamesRead_;  // the script's reads (passes keep them); null: unknown
  bool sawCommand_ = false;
  std::unique_ptr<Module> current_, previous_;
  uint64_t builtFrom_ = 0;
};

}  // namespace pir::cli
