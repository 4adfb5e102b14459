// Shared by the libFuzzer targets that run programs: small resource budgets and
// a private working directory, so that any input is cheap and harmless.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include <unistd.h>

#include "vm/host_memory.h"
#include "vm/session.h"

namespace pir::fuzz {

// Budgets of one input: host memory for tensors (all of them: buffers, values,
// snapshots), the steps of all its runs and previews together (a step: an
// instruction, or 64 elements it touches; vm::SessionOptions::maxSteps), runs per
// `run N`, replicas.
inline constexpr uint64_t kHostMemoryBytes = uint64_t(8) << 20;
inline constexpr uint64_t kMaxSteps = 25000;
inline constexpr int64_t kMaxRuns = 16;
inline constexpr int64_t kMaxReplicas = 8;

// The options of every session a target runs: one thread, the step budget.
inline vm::SessionOptions boundedSessionOptions() {
  vm::SessionOptions options;
  options.threads = 1;
  options.maxSteps = kMaxSteps;
  return options;
}

// A fresh temporary directory, made the working directory once per process and
// removed at a normal exit (after a crash it stays, with what the input saved):
// relative load/save paths (the only ones accepted, see namesOutsidePaths) stay in it.
inline const std::string& workDir() {
  static const std::string dir = [] {
    std::string templ = (std::filesystem::temp_directory_path() / "pir-fuzz-XXXXXX").string();
    if (!::mkdtemp(templ.data())) std::abort();
    if (::chdir(templ.c_str()) != 0) std::abort();
    vm::setHostMemoryLimit(kHostMemoryBytes);
    // The handler runs after `dir` is destroyed (it is registered first), so it
    // keeps its own copy of the path.
    static char removeAtExit[4096];
    if (templ.size() >= sizeof removeAtExit) std::abort();
    std::memcpy(removeAtExit, templ.c_str(), templ.size() + 1);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(removeAtExit, ec);
    });
    return templ;
  }();
  return dir;
}

// Inputs that could name a file outside the working directory (an absolute path,
// a subdirectory or `..`) are skipped: the fuzzer never reads or writes elsewhere.
inline bool namesOutsidePaths(std::string_view text) {
  return text.find('/') != std::string_view::npos || text.find("..") != std::string_view::npos ||
         text.find('\\') != std::string_view::npos;
}

// Removes what an input saved, so inputs stay independent.
inline void clearWorkDir() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(workDir(), ec))
    std::filesystem::remove_all(entry.path(), ec);
}

}  // namespace pir::fuzz
