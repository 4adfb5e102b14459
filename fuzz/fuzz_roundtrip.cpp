// libFuzzer target: print -> reparse -> print is a fixed point. Any input that
// builds prints to canonical text that builds again (session commands are not
// printed) and prints identically. One exception, as in tests/roundtrip_all.sh:
// a load("F") of a file the input's own `save` writes is checked when it runs,
// not at the parse (decisions.md), so the printed program, which has no
// commands, cannot open F.
// The budget: the input builds within kHostMemoryBytes; its canonical text can be
// much longer than the input (an attribute such as `n = 20000` prints as 20000
// named, typed results), and reading text costs the parse's structures per byte
// (the parse budget). The reparse therefore gets the input's budget plus a
// parse's worth for the printed text, with the first module freed before it.
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
  return pir::buildFromBuffer(module, diags, file, dir, script).succeeded();
}

// Host memory the parse may take per byte of text, at most: the AST and IR of a
// result name (`%123, `: 6 bytes) with its type (`u32[2], `: 8 bytes).
constexpr uint64_t kReparseBytesPerTextByte = 128;

// Sets the process's host-memory budget for one scope.
class BudgetScope {
 public:
  explicit BudgetScope(uint64_t bytes) : saved_(pir::vm::hostMemoryLimit()) { pir::vm::setHostMemoryLimit(bytes); }
  ~BudgetScope() { pir::vm::setHostMemoryLimit(saved_); }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;

 private:
  uint64_t saved_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = pir::fuzz::workDir();
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string printed;
  bool saves = false;
  {
    std::ostringstream sink;
    pir::Module first;
    pir::Script script;
    if (!build(text, first, sink, dir, &script)) return 0;
    for (const pir::ScriptCommand& c : script) saves = saves || c.command.kind == pir::SessionCommand::Kind::Save;
    printed = pir::printModule(first);
  }
  BudgetScope reparseBudget(pir::fuzz::kHostMemoryBytes + kReparseBytesPerTextByte * printed.size());
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
