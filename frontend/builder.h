// Builds and verifies IR from parser events, one statement at a time: the one
// front end shared by files and the REPL (tools.md §5). Each statement is
// resolved, type-inferred and verified (ir/verifier.h) as it arrives; the first
// error is reported and thrown as CompileError.
#pragma once
#include <string>

#include "frontend/ast.h"
#include "frontend/script.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/result.h"

namespace pir {

// Observes what the builder adds, for the REPL's echo. Session commands are not
// events: the builder collects them into a Script (frontend/script.h) that a
// session runs after the whole input was parsed and verified.
class BuildListener {
 public:
  virtual ~BuildListener() = default;
  virtual void valueDefined(const Value&) {}       // main-graph var/const/op result
  virtual void graphDefined(const Graph&) {}       // after its closing brace
  virtual void resourceDefined(const Resource&) {}
};

// Normal: every statement is checked as it arrives (ir/verifier.h), the first
// error stops the build. ResolveOnly: names are resolved (an unknown name still
// stops the build) but the language's rules are not checked: a statement that
// breaks one is built anyway, so that verifyModule, run on the result, can be
// held to the diagnostics the normal mode gives (tests/unit/verifier_parity_test.cpp).
enum class BuildMode { Normal, ResolveOnly };

// The autodiff transform (passes/autodiff.h), run when a directive is read.
// The front end does not link passes/: the caller hands it in (BuildOptions;
// pir::Context does). Without it a directive is the error "autodiff is not
// available in this build". Returns false after reporting an error.
using AutodiffTransform = bool (*)(Module& m, Graph& fwd, const std::string& gradName, const AttrDict& attrs,
                                   SourceLoc loc, DiagnosticEngine& diags);

struct BuildOptions {
  BuildListener* listener = nullptr;
  BuildMode mode = BuildMode::Normal;
  AutodiffTransform autodiff = nullptr;
};

class Builder final : public ast::ParseSink {
 public:
  // `baseDir`: directory that relative load()/save paths resolve against.
  Builder(Module& module, DiagnosticEngine& diags, std::string baseDir, const BuildOptions& options = {});

  void irOptions(ast::IrOptionsItem&&) override;
  void stream(ast::StreamDecl&&) override;
  void remoteBuffer(ast::RemoteBufferDecl&&) override;
  void beginGraph(ast::GraphHeader&&) override;
  void endGraph(SourceLoc closeBrace) override;
  void beginMain(SourceLoc loc) override;
  void endMain(SourceLoc closeBrace) override;
  void statement(ast::BodyStmt&&) override;
  void resultNamed(std::string_view name) override;
  void autodiff(ast::AutodiffItem&&) override;
  void feed(ast::FeedCmd&&) override;
  void run(ast::RunCmd&&) override;
  void print(ast::PrintCmd&&) override;
  void write(ast::WriteCmd&&) override;
  void save(ast::SaveCmd&&) override;

  // Abandons a graph left open by an error (the REPL calls this before rollback).
  void reset();
  // The session commands read since the last call, in order, each with the
  // program point it was read at.
  Script takeCommands();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// Sizes the main graph's scope and op/value lists for the statements a large
// buffer holds (an estimate from its lines), so that building it never regrows
// them; a small buffer reserves nothing.
void reserveForBuffer(Module& module, const std::string& text);

// Parses and builds a whole buffer (already added to diags.sources()) into
// `module`; its session commands are appended to `script` (when given; else
// they are checked and dropped). Nothing runs. failure() after the first error
// (already reported; ir/result.h).
LogicalResult buildFromBuffer(Module& module, DiagnosticEngine& diags, uint32_t file, const std::string& baseDir,
                              Script* script = nullptr, const BuildOptions& options = {});

}  // namespace pir
