// libFuzzer target: the REPL line loop (repl/repl.h). The input is split into
// lines and fed one by one (meta-commands included), then finished; the REPL
// must survive anything and keep its all-or-nothing inputs.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz/fuzz_common.h"
#include "repl/repl.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pir::fuzz::workDir();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (pir::fuzz::namesOutsidePaths(text)) return -1;
  // Replication is bounded by the text: an input that may set more than 8 replicas
  // (any `replication` followed by `=` and a number above 8) is skipped.
  for (size_t at = text.find("replication"); at != std::string_view::npos; at = text.find("replication", at + 1)) {
    const size_t eq = text.find('=', at);
    if (eq == std::string_view::npos) break;
    size_t k = eq + 1;
    while (k < text.size() && text[k] == ' ') ++k;
    size_t digits = 0;
    while (k + digits < text.size() && text[k + digits] >= '0' && text[k + digits] <= '9') ++digits;
    if (digits > 1 || (digits == 1 && text[k] > '8')) return -1;
  }
  if (text.find("run ") != std::string_view::npos) {  // `run N`: N < 100 only
    for (size_t at = text.find("run "); at != std::string_view::npos; at = text.find("run ", at + 1)) {
      size_t k = at + 4, digits = 0;
      while (k + digits < text.size() && text[k + digits] >= '0' && text[k + digits] <= '9') ++digits;
      if (digits > 2) return -1;
    }
  }
  std::ostringstream out, err;
  // The session bounded as boundedSessionOptions() bounds the others (the REPL
  // takes the public API's options); each preview has its own budget, bounded alike.
  pir::Repl repl(out, err, pir::api::ContextOptions{.threads = 1, .maxSteps = pir::fuzz::kMaxSteps},
                 pir::PreviewBudget{.maxSteps = pir::fuzz::kMaxSteps});
  size_t start = 0;
  while (start <= text.size() && !repl.quitRequested()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    repl.feedLine(text.substr(start, end - start));
    start = end + 1;
  }
  repl.finish();
  if (text.find("save") != std::string_view::npos) pir::fuzz::clearWorkDir();
  return 0;
}
