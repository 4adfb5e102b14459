#include "ir/host_memory.h"

#include <atomic>
#include <cstdlib>

#include <unistd.h>

#include "ir/checked_math.h"
#include "ir/context.h"

namespace pir {
namespace {

std::string bytesText(uint64_t n) {
  std::string s = std::to_string(n) + " bytes";
  if (n >= (uint64_t(1) << 30)) s += " (" + std::to_string(n >> 30) + " GiB)";
  else if (n >= (uint64_t(1) << 20)) s += " (" + std::to_string(n >> 20) + " MiB)";
  return s;
}

}  // namespace

HostMemoryExhausted::HostMemoryExhausted(uint64_t req, uint64_t used, uint64_t lim)
    : requested(req), inUse(used), limit(lim) {
  text = "out of host memory: " + bytesText(req) + " more would exceed the budget of " + bytesText(lim) + " (" +
         bytesText(used) + " in use; raise it with --max-memory=BYTES or PIR_MAX_MEMORY)";
}

uint64_t defaultHostMemoryLimit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return uint64_t(16) << 30;
  const uint64_t physical = saturatingMul(static_cast<uint64_t>(pages), static_cast<uint64_t>(pageSize));
  return physical / 4 * 3;
}

uint64_t HostMemoryBudget::limit() {
  uint64_t limit = limit_.load(std::memory_order_relaxed);
  if (limit == 0) {
    uint64_t expected = 0;
    limit_.compare_exchange_strong(expected, defaultHostMemoryLimit());
    limit = limit_.load(std::memory_order_relaxed);
  }
  return limit;
}

void HostMemoryBudget::setLimit(uint64_t bytes) { limit_.store(bytes == 0 ? 1 : bytes); }

void HostMemoryBudget::charge(uint64_t bytes) {
  if (bytes == 0) return;
  const uint64_t lim = limit();
  uint64_t used = inUse_.load(std::memory_order_relaxed);
  while (true) {
    const uint64_t next = saturatingAdd(used, bytes);
    if (next > lim) throw HostMemoryExhausted(bytes, used, lim);
    if (inUse_.compare_exchange_weak(used, next, std::memory_order_relaxed)) return;
  }
}

HostMemoryBudget& hostMemoryBudget() { return currentContext().memory(); }
uint64_t hostMemoryLimit() { return hostMemoryBudget().limit(); }
void setHostMemoryLimit(uint64_t bytes) { hostMemoryBudget().setLimit(bytes); }
uint64_t hostMemoryInUse() { return hostMemoryBudget().inUse(); }
void chargeHostMemory(uint64_t bytes) { hostMemoryBudget().charge(bytes); }
void requireHostMemory(uint64_t bytes) {
  const uint64_t limit = hostMemoryLimit(), used = hostMemoryInUse();
  if (saturatingAdd(used, bytes) > limit) throw HostMemoryExhausted(bytes, used, limit);
}
void releaseHostMemory(uint64_t bytes) noexcept { hostMemoryBudget().release(bytes); }

std::optional<uint64_t> parseByteSize(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    auto next = checkedMul<uint64_t>(value, 10);
    if (next) next = checkedAdd<uint64_t>(*next, static_cast<uint64_t>(text[i] - '0'));
    if (!next) return std::nullopt;
    value = *next;
  }
  if (i == 0) return std::nullopt;
  std::string_view suffix = text.substr(i);
  int shift = 0;
  if (suffix == "K" || suffix == "KiB" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "MiB") shift = 20;
  else if (suffix == "G" || suffix == "GiB") shift = 30;
  else if (suffix == "T" || suffix == "TiB") shift = 40;
  else if (!suffix.empty() && suffix != "B") return std::nullopt;
  auto scaled = checkedMul<uint64_t>(value, uint64_t(1) << shift);
  if (!scaled || *scaled == 0) return std::nullopt;
  return scaled;
}

std::optional<std::string> applyHostMemoryEnvironment() {
  const char* env = std::getenv("PIR_MAX_MEMORY");
  if (!env || !*env) return std::nullopt;
  auto bytes = parseByteSize(env);
  if (!bytes)
    return "PIR_MAX_MEMORY='" + std::string(env) + "' is not a byte count (a positive number, optionally with K, M, G or T)";
  setHostMemoryLimit(*bytes);
  return std::nullopt;
}

std::string outOfMemoryText(const std::bad_alloc& e) {
  if (dynamic_cast<const HostMemoryExhausted*>(&e)) return e.what();
  return "out of host memory (the system refused an allocation; --max-memory=BYTES sets a budget below it)";
}

}  // namespace pir
