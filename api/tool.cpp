// include/pir/tool.h over the layers: reference texts, suggestions, version,
// interrupt, host-memory budget and the MPI process group.
#include "pir/tool.h"

#include "frontend/keyword_docs.h"
#include "frontend/lexical.h"
#include "ir/interrupt.h"
#include "ir/op_docs.h"
#include "ir/op_info.h"
#include "ir/suggest.h"
#include "ir/version.h"
#include "vm/communicator.h"
#include "vm/host_memory.h"

namespace pir::api {

std::string version() { return PIR_VERSION; }

std::vector<std::string> dtypeNames() {
  std::vector<std::string> names;
  for (int t = 0; t < kNumDTypes; ++t) names.emplace_back(dtypeName(static_cast<::pir::DType>(t)));
  return names;
}

std::optional<std::string> opHelp(std::string_view name) { return pir::opHelp(name); }
std::string opReference(bool markdown) { return markdown ? opReferenceMarkdown() : opReferenceText(); }
std::vector<std::string> opNames() {
  std::vector<std::string> names;
  for (std::string_view n : allOpNames()) names.emplace_back(n);
  return names;
}

std::optional<std::string> keywordHelp(std::string_view word) { return pir::keywordHelp(word); }
std::string keywordReference(bool markdown) { return markdown ? keywordReferenceMarkdown() : keywordReferenceText(); }
std::vector<std::string> keywordNames() {
  std::vector<std::string> names;
  for (std::string_view n : pir::keywordNames()) names.emplace_back(n);
  return names;
}
std::vector<std::string> keywordSpellings() {
  std::vector<std::string> words;
  for (std::string_view w : pir::keywordSpellings()) words.emplace_back(w);
  return words;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates, std::string_view sigil) {
  return pir::didYouMean(word, candidates, sigil);
}

void requestInterrupt() { pir::raiseInterruptSignal(); }
uint64_t interruptSignalCount() { return pir::interruptSignalCount(); }
bool interruptRequested() { return pir::interruptRequested(); }
void clearInterrupt() { pir::clearInterrupt(); }

void setHostMemoryLimit(uint64_t bytes) { vm::setHostMemoryLimit(bytes); }
uint64_t hostMemoryLimit() { return vm::hostMemoryLimit(); }
uint64_t hostMemoryInUse() { return vm::hostMemoryInUse(); }
std::optional<uint64_t> parseByteSize(std::string_view text) { return vm::parseByteSize(text); }
std::optional<std::string> applyHostMemoryEnvironment() { return vm::applyHostMemoryEnvironment(); }

bool initProcessGroup(int& argc, char**& argv) { return vm::initProcessGroup(argc, argv); }
int finishProcessGroup(int status) { return vm::finishProcessGroup(status); }
int processCount() { return vm::processCommunicator().processes(); }

}  // namespace pir::api
