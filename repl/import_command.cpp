// `pir import MODEL.onnx [-o OUT.pir] [--input-shape NAME=D0,D1,...]...`
// (tools.md §1, docs/importing.md): thin over the importer's public entry (pir/onnx.h).
#include <ostream>

#include "pir/onnx.h"
#include "repl/commands.h"

namespace pir::cli {

int importCommand(const ImportOptions& options, std::ostream& out, std::ostream& err) {
  onnx_import::ImportRequest request;
  request.model = options.model;
  request.output = options.output.value_or("");
  request.inputShapes = options.inputShapes;
  const onnx_import::ImportOutcome outcome = onnx_import::importModelFile(request);
  (void)out;
  switch (outcome.failure) {
    case onnx_import::ImportOutcome::Failure::None: return 0;
    case onnx_import::ImportOutcome::Failure::Model: err << outcome.message << '\n'; return 1;
    case onnx_import::ImportOutcome::Failure::File: err << "pir: error: " << outcome.message << '\n'; return 2;
  }
  return 1;
}

}  // namespace pir::cli
