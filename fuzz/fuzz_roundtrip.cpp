// libFuzzer target: print -> reparse -> print is a fixed point. Any input that
// builds prints to canonical text that builds again (session commands are not
// printed) and prints identically. One exception, as in tests/roundtrip_all.sh:
// a load("F") of a file the input's own `save` writes is checked when it runs,
// not at the parse (decisions.md), so the printed program, which has no
// commands, cannot open F.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "frontend/builder.h"
#include "frontend/script.h"
#include "ir/printer.h"
#include "fuzz/fuzz_common.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"

namespace {

bool build(const std::string& text, pir::Module& module, std::ostream& sink, const std::string& dir,
           pir::Script* script = nullptr) {
  pir::SourceManager sources;
  uint32_t file = sources.add("<fuzz>", text);
  pir::DiagnosticEngine diags(sources);
  diags.setStream(&sink);
  try {
    return pir::buildFromBuffer(module, diags, file, dir, script).succeeded();
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
  pir::Script script;
  if (!build(text, first, sink, dir, &script)) return 0;
  bool saves = false;
  for (const pir::ScriptCommand& c : script) saves = saves || c.command.kind == pir::SessionCommand::Kind::Save;
  const std::string printed = pir::printModule(first);
  pir::Module second;
  std::ostringstream secondSink;
  if (!build(printed, second, secondSink, dir)) {
    if (saves && secondSink.str().find("cannot open") != std::string::npos) return 0;
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
