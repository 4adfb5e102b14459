// libFuzzer target: the NPY reader (vm/npy.h) on arbitrary bytes, in memory and
// from a file. Any input is an array or an NpyError; the reader never allocates
// more than the bytes it was given imply.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/fuzz_common.h"
#include "vm/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pir::fuzz::workDir();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string fromMemory, fromFile;
  try {
    pir::vm::NpyArray a = pir::vm::parseNpy(bytes, "<fuzz>");
    if (a.tensor.bytes.size() > size) __builtin_trap();
    // What parses must round-trip through the writer's encoding.
    pir::vm::NpyArray b = pir::vm::parseNpy(pir::vm::encodeNpy(a.tensor.type.dtype, a.tensor.type.shape, a.tensor.data()));
    if (b.tensor.type != a.tensor.type || b.tensor.bytes.size() != a.tensor.bytes.size()) __builtin_trap();
    fromMemory = "ok";
  } catch (const pir::vm::NpyError& e) {
    fromMemory = e.what();
  }
  // The file reader must agree with the in-memory one.
  std::FILE* f = std::fopen("input.npy", "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    pir::vm::readNpy("input.npy");
    fromFile = "ok";
  } catch (const pir::vm::NpyError& e) {
    fromFile = e.what();
  }
  if ((fromMemory == "ok") != (fromFile == "ok")) __builtin_trap();
  return 0;
}
