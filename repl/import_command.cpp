// `pir import MODEL.onnx [-o OUT.pir] [--input-shape NAME=D0,D1,...]...`
// (tools.md §1, docs/importing.md): thin over importers/onnx/importer.h.
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>

#include "importers/onnx/importer.h"
#include "repl/commands.h"

namespace pir::cli {

std::string defaultImportOutput(const std::string& model) {
  std::string out = model;
  size_t slash = out.find_last_of('/');
  size_t dot = out.find_last_of('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) out.erase(dot);
  return out + ".pir";
}

int importCommand(const ImportOptions& options, std::ostream& out, std::ostream& err) {
  std::ifstream file(options.model, std::ios::binary);
  if (!file) {
    err << "pir: error: cannot read " << options.model << '\n';
    return 2;
  }
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) {
    err << "pir: error: cannot read " << options.model << '\n';
    return 2;
  }
  onnx_import::ImportOptions o;
  o.modelPath = options.model;
  o.outPath = options.output ? *options.output : defaultImportOutput(options.model);
  o.inputShapes = options.inputShapes;
  try {
    onnx_import::ImportResult result = onnx_import::importOnnx(bytes, o);
    std::string error;
    if (!onnx_import::writeImport(result, o.outPath, error)) {
      err << "pir: error: " << error << '\n';
      return 2;
    }
  } catch (const onnx_import::ImportError& e) {
    err << e.what() << '\n';
    return 1;
  } catch (const std::bad_alloc&) {
    err << options.model << ": error: out of memory while importing\n";
    return 1;
  }
  (void)out;
  return 0;
}

}  // namespace pir::cli
