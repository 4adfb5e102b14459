#include "importers/onnx/pir_program.h"

#include <sstream>
#include <unordered_map>

#include "frontend/builder.h"
#include "frontend/parser.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace pir::onnx_import {

namespace {
// Records the type of every main-graph value as the builder defines it.
class TypeRecorder final : public BuildListener {
 public:
  void valueDefined(const Value& v) override { types[v.name] = &v; }
  std::unordered_map<std::string, const Value*> types;
};

// The message of the first error, without the generated text's position.
std::string firstError(const DiagnosticEngine& diags) {
  for (const Diagnostic& d : diags.all())
    if (d.severity == Severity::Error) return d.message;
  return "rejected by pir";
}
}  // namespace

struct PirProgram::Impl {
  explicit Impl(std::string dir) : diags(sources), builder(module, diags, std::move(dir), {.listener = &recorder}) {}
  SourceManager sources;
  DiagnosticEngine diags;
  Module module;
  TypeRecorder recorder;
  Builder builder;
  bool broken = false;
};

PirProgram::PirProgram(std::string baseDir) : impl_(std::make_unique<Impl>(std::move(baseDir))) {}
PirProgram::~PirProgram() = default;

std::optional<std::string> PirProgram::add(std::string_view statement) {
  if (impl_->broken) return std::string("the program was already rejected");
  uint32_t file = impl_->sources.add("<import>", std::string(statement));
  try {
    parseBuffer(file, impl_->builder, impl_->diags);
  } catch (const CompileError&) {
  }
  if (impl_->diags.errorCount() > 0) {
    impl_->broken = true;
    return firstError(impl_->diags);
  }
  return std::nullopt;
}

std::optional<PirType> PirProgram::typeOf(const std::string& name) const {
  auto it = impl_->recorder.types.find(name);
  if (it == impl_->recorder.types.end()) return std::nullopt;
  const TensorType& t = it->second->type;
  return PirType{std::string(dtypeName(t.dtype)), t.shape};
}

std::optional<std::string> PirProgram::printCanonical(std::string& error) const {
  if (impl_->broken) {
    error = firstError(impl_->diags);
    return std::nullopt;
  }
  if (!verifyModule(impl_->module, impl_->diags) || impl_->diags.errorCount() > 0) {
    error = firstError(impl_->diags);
    return std::nullopt;
  }
  return printModule(impl_->module);
}

}  // namespace pir::onnx_import
