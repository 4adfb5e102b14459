// libFuzzer target: print -> reparse -> print is a fixed point. Any input that
// builds prints to canonical text that builds again (session commands are not
// printed) and prints identically.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "frontend/builder.h"
#include "ir/printer.h"
#include "fuzz/fuzz_common.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace {

bool build(const std::string& text, pir::Module& module, std::ostream& sink, const std::string& dir) {
  pir::SourceManager sources;
  uint32_t file = sources.add("<fuzz>", text);
  pir::DiagnosticEngine diags(sources);
  diags.setStream(&sink);
  try {
    return pir::buildFromBuffer(module, diags, file, dir, nullptr);
  } catch (const pir::CompileError&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = pir::fuzz::workDir();
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::ostringstream sink;
  pir::Module first;
  if (!build(text, first, sink, dir)) return 0;
  const std::string printed = pir::printModule(first);
  pir::Module second;
  std::ostringstream secondSink;
  if (!build(printed, second, secondSink, dir)) {
    std::fprintf(stderr, "canonical text does not build:\n%s\n%s\n", printed.c_str(), secondSink.str().c_str());
    __builtin_trap();
  }
  const std::string reprinted = pir::printModule(second);
  if (reprinted != printed) {
    std::fprintf(stderr, "not a fixed point:\n--- first\n%s\n--- second\n%s\n", printed.c_str(), reprinted.c_str());
    __builtin_trap();
  }
  return 0;
}
