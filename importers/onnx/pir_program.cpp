#include "importers/onnx/pir_program.h"

#include "pir/pir.h"

namespace pir::onnx_import {

struct PirProgram::Impl {
  explicit Impl(std::string dir) : module(api::Module::create(context, std::move(dir))) {}
  api::Context context;
  api::Module module;
  std::string rejection;  // the first error's message, once pir rejected a statement
};

PirProgram::PirProgram(std::string baseDir) : impl_(std::make_unique<Impl>(std::move(baseDir))) {}
PirProgram::~PirProgram() = default;

std::optional<std::string> PirProgram::add(std::string_view statement) {
  if (!impl_->rejection.empty()) return std::string("the program was already rejected");
  api::Status s = impl_->module.add(statement, "<import>");
  if (s) return std::nullopt;
  impl_->rejection = s.message().empty() ? "rejected by pir" : s.message();
  return impl_->rejection;
}

std::optional<PirType> PirProgram::typeOf(const std::string& name) const {
  api::Result<api::Type> t = impl_->module.typeOf("%" + name);
  if (!t) return std::nullopt;
  return PirType{api::dtypeToString(t->dtype), t->shape};
}

std::optional<std::string> PirProgram::printCanonical(std::string& error) const {
  if (!impl_->rejection.empty()) {
    error = impl_->rejection;
    return std::nullopt;
  }
  if (api::Status s = impl_->module.verify(); !s) {
    error = s.message().empty() ? "rejected by pir" : s.message();
    return std::nullopt;
  }
  return impl_->module.print();
}

}  // namespace pir::onnx_import
