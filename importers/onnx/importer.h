// `pir import`: an ONNX ModelProto (opsets 7 to 17) to a canonical `.pir`
// program (docs/importing.md). Graph inputs become h2d streams, outputs d2h
// streams, initializers variables (large ones loaded from .npy files written
// beside the output), and shape computations are folded at import.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "importers/onnx/tensor_data.h"
#include "pir/onnx.h"  // the public entry (importModelFile) and parseInputShape

namespace pir::onnx_import {

struct ImportOptions {
  std::string modelPath = "model.onnx";  // named in messages
  std::string outPath = "model.pir";     // the .npy files go beside it, named after its stem
  // --input-shape NAME=D0,D1,...: fixes the dims of graph input NAME (its ONNX name).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  // Initializers and constants of at most this many elements are written as literals.
  int64_t maxLiteralElements = 16;
};

struct ImportedFile {
  std::string path;    // where it goes (beside outPath)
  std::string staged;  // where it is until writeImport moves it
};

// A directory beside the output holding the weights until the import is
// written (pir's verifier reads each load() while the program is built);
// removed with what it still holds when the last owner goes.
struct StagingDir {
  std::string path;
  explicit StagingDir(std::string p) : path(std::move(p)) {}
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;
};

struct ImportResult {
  std::string text;                  // the .pir program
  std::vector<ImportedFile> files;   // weights, referenced by load("...") in text
  int64_t statements = 0;            // .pir statements generated (work, for the linearity test)
  std::shared_ptr<StagingDir> staging;
};

// Imports `modelBytes` (a serialized ModelProto). Throws ImportError whose
// message is the whole diagnostic ("FILE: error: ..."). Weights are written to
// a staging directory beside options.outPath; nothing else is written, and on
// failure nothing is left.
ImportResult importOnnx(std::string_view modelBytes, const ImportOptions& options);

// Moves the weights into place and writes the program (to a temporary name
// renamed into place); on failure removes what it wrote and returns false
// with `error` set.
bool writeImport(const ImportResult& result, const std::string& outPath, std::string& error);

}  // namespace pir::onnx_import
