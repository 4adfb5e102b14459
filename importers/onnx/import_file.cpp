// include/pir/onnx.h: the importer from a model file to the written program.
#include <fstream>
#include <iterator>

#include "importers/onnx/importer.h"
#include "pir/onnx.h"

namespace pir::onnx_import {

std::string defaultImportOutput(const std::string& model) {
  std::string out = model;
  size_t slash = out.find_last_of('/');
  size_t dot = out.find_last_of('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) out.erase(dot);
  return out + ".pir";
}

ImportOutcome importModelFile(const ImportRequest& request) {
  using Failure = ImportOutcome::Failure;
  std::ifstream file(request.model, std::ios::binary);
  if (!file) return {Failure::File, "cannot read " + request.model};
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return {Failure::File, "cannot read " + request.model};
  ImportOptions o;
  o.modelPath = request.model;
  o.outPath = request.output.empty() ? defaultImportOutput(request.model) : request.output;
  o.inputShapes = request.inputShapes;
  try {
    ImportResult result = importOnnx(bytes, o);
    std::string error;
    if (!writeImport(result, o.outPath, error)) return {Failure::File, error};
  } catch (const ImportError& e) {
    return {Failure::Model, e.what()};
  } catch (const std::bad_alloc&) {
    return {Failure::Model, request.model + ": error: out of memory while importing"};
  }
  return {};
}

}  // namespace pir::onnx_import
