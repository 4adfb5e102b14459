// The ONNX importer's public entry (library `pir_onnx`, docs/importing.md):
// an ONNX model file to a canonical `.pir` program and the `.npy` weights
// beside it. `pir import` is this call.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pir::onnx_import {

struct ImportRequest {
  std::string model;   // MODEL.onnx
  std::string output;  // OUT.pir; "" : MODEL with the extension .pir (defaultImportOutput)
  // Fixed dims of graph inputs, by ONNX name (`--input-shape NAME=D0,D1,...`).
  std::map<std::string, std::vector<int64_t>> inputShapes;
};

struct ImportOutcome {
  enum class Failure {
    None,
    Model,  // the model is wrong or unsupported: `message` is the whole located diagnostic ("FILE: error: ...")
    File,   // the model cannot be read or the output cannot be written: `message` says which and why
  };
  Failure failure = Failure::None;
  std::string message;
  bool ok() const { return failure == Failure::None; }
};

// Reads the model, imports it and writes the program with its weights. Nothing
// is written when it fails.
ImportOutcome importModelFile(const ImportRequest& request);

// MODEL with its extension replaced by .pir ("m.onnx" -> "m.pir").
std::string defaultImportOutput(const std::string& model);

// "a=1,2,3" -> name "a", dims {1,2,3}. Returns false with `problem` set.
bool parseInputShape(std::string_view text, std::string& name, std::vector<int64_t>& dims, std::string& problem);

}  // namespace pir::onnx_import
