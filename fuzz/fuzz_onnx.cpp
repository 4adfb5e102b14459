// libFuzzer target: the ONNX importer (importers/onnx) on arbitrary bytes. Any
// input is an imported program or an ImportError; never a crash, a hang or an
// allocation beyond what the input's sizes are checked to allow. What imports
// verifies (the importer checks it with pir's verifier), and its weights leave
// nothing behind once the result goes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include <unistd.h>

#include "importers/onnx/importer.h"

namespace {
// A private working directory (the importer stages weights beside out.pir).
// Without fuzz_common.h, so that the target links the importer and the front
// end only, not the VM.
void enterWorkDir() {
  static const bool entered = [] {
    std::string templ = (std::filesystem::temp_directory_path() / "pir-fuzz-onnx-XXXXXX").string();
    if (!::mkdtemp(templ.data()) || ::chdir(templ.c_str()) != 0) std::abort();
    return true;
  }();
  (void)entered;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  enterWorkDir();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  pir::onnx_import::ImportOptions options;
  options.modelPath = "fuzz.onnx";
  options.outPath = "out.pir";
  std::string staging;
  try {
    pir::onnx_import::ImportResult r = pir::onnx_import::importOnnx(bytes, options);
    if (r.text.empty()) __builtin_trap();
    staging = r.staging->path;
  } catch (const pir::onnx_import::ImportError&) {
  } catch (const std::bad_alloc&) {
  }
  if (!staging.empty() && std::filesystem::exists(staging)) __builtin_trap();
  return 0;
}
