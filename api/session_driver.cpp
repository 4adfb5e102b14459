#include "api/session_driver.h"

#include "api/pass_runner.h"
#include "ir/rewriter.h"

namespace pir {

std::set<std::string> mainValuesReadBy(const Script& script) {
  std::set<std::string> names;
  for (const ScriptCommand& c : script)
    for (const Value* v : c.values)
      if (v) names.insert(v->name);
  return names;
}

SessionDriver::SessionDriver(Module& source, vm::Session& session, DiagnosticEngine& diags,
                             std::vector<std::string> passes, bool verifyEach,
                             const std::set<std::string>* mainNamesRead)
    : source_(source),
      session_(session),
      diags_(diags),
      passes_(std::move(passes)),
      verifyEach_(verifyEach),
      mainNamesRead_(mainNamesRead) {}

SessionDriver::~SessionDriver() = default;

LogicalResult SessionDriver::build(uint32_t file, const std::string& baseDir) {
  Script script;
  BuildOptions options;
  options.autodiff = autodiffTransform();
  if (buildFromBuffer(source_, diags_, file, baseDir, &script, options).failed()) return failure();
  if (!mainNamesRead_) {
    builtNamesRead_ = mainValuesReadBy(script);
    mainNamesRead_ = &builtNamesRead_;
  }
  return run(script);
}

LogicalResult SessionDriver::run(const Script& script) {
  for (const ScriptCommand& c : script)
    if (command(c).failed()) return failure();
  return success();
}

LogicalResult SessionDriver::command(const ScriptCommand& c) {
  sawCommand_ = true;
  if (syncProgram(c.point).failed()) return failure();
  if (c.command.kind == SessionCommand::Kind::Run) runs_ += c.command.count;
  // A `%` target is the value the name meant when the command was read.
  bool renamed = false;
  for (size_t i = 0; i < c.values.size(); ++i)
    renamed = renamed || (c.values[i] && c.command.names[i] != "%" + c.values[i]->name);
  if (!renamed) return session_.command(c.command);
  SessionCommand cmd = c.command;
  for (size_t i = 0; i < c.values.size(); ++i)
    if (c.values[i]) cmd.names[i] = "%" + c.values[i]->name;
  return session_.command(cmd);
}

LogicalResult SessionDriver::finish() {
  if (sawCommand_) return success();
  if (syncProgram(source_.point()).failed()) return failure();
  return session_.runDefault();
}

void SessionDriver::release() {
  if (!current_) return;
  session_.setModule(source_);
  previous_ = std::move(current_);
}

// Points the session at the program of `point`: the source itself when the
// point is its present and no pass runs, else a copy (cut back, transformed).
LogicalResult SessionDriver::syncProgram(const ProgramPoint& point) {
  const bool whole = point == source_.point();
  if (whole && passes_.empty()) {
    release();
    return success();
  }
  if (current_ && currentPoint_ == point) return success();
  std::unique_ptr<Module> next = source_.clone();
  if (!whole) truncateMainTo(*next, point);
  if (!passes_.empty() && !runPasses(*next, passes_, diags_, verifyEach_, nullptr, mainNamesRead_))
    return failure();
  session_.setModule(*next);
  // The previous copy stays alive until the session has recompiled from the new one.
  previous_ = std::move(current_);
  current_ = std::move(next);
  currentPoint_ = point;
  return success();
}

}  // namespace pir
