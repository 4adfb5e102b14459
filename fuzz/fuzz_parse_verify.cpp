// libFuzzer target: parse + verify of arbitrary bytes, autodiff directives
// included. Any input must give either a clean module or a located diagnostic:
// never a crash, hang or leak. The input gets the host-memory budget of the other
// targets (fuzz_common.h): a 20-byte attribute can ask for a million results,
// which is an out-of-memory error at the statement, not 300 MB and seconds.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/builder.h"
#include "fuzz/fuzz_common.h"
#include "ir/host_memory.h"
#include "ir/printer.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "ir/verifier.h"
#include "passes/autodiff.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool budgeted = (pir::setHostMemoryLimit(pir::fuzz::kHostMemoryBytes), true);
  (void)budgeted;
  pir::SourceManager sources;
  uint32_t file = sources.add("<fuzz>", std::string(reinterpret_cast<const char*>(data), size));
  pir::DiagnosticEngine diags(sources);
  pir::Module module;
  if (pir::buildFromBuffer(module, diags, file, "/nonexistent-fuzz-dir", nullptr, {.autodiff = &pir::autodiff})) {
    // A module that verifies must also print (the printer is total on valid IR),
    // and what autodiff added must verify as a whole.
    std::string text = pir::printModule(module);
    bool differentiated = false;
    for (const auto& g : module.graphs) differentiated = differentiated || g->gradOf;
    if (differentiated && !pir::verifyModule(module, diags)) __builtin_trap();
    (void)text;
  } else {
    // Every failure must have been reported with a message.
    if (diags.errorCount() == 0) __builtin_trap();
  }
  return 0;
}
