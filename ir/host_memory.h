// The host-memory budget of a context (ir/context.h; decisions.md "Resource budgets"):
// every tensor buffer the VM keeps on the host (variables, stream and remote
// buffers, main-graph values, frames, constants, run backups and REPL snapshots,
// loaded files) is an AlignedBytes, and AlignedBytes charges the budget before it
// allocates; the parser charges the structures an input makes while it reads it
// (frontend/parser.cpp), and the IR is charged while it exists (Op::chargeUses, IrHostCharge,
// ir/ir.h). A request beyond the budget throws HostMemoryExhausted (a
// std::bad_alloc), which the session reports at the command's location; nothing
// is allocated and the state is as before the command.
//
// Default: 3/4 of the machine's physical memory (16 GiB when it cannot be read).
// Override: `--max-memory=BYTES` on run/repl/profile, or the environment variable
// PIR_MAX_MEMORY (the flag wins). Suffixes K, M, G, T (powers of 1024) are accepted.
#pragma once
#include <atomic>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <string_view>

namespace pir {

struct HostMemoryExhausted : std::bad_alloc {
  uint64_t requested, inUse, limit;
  std::string text;
  HostMemoryExhausted(uint64_t requested, uint64_t inUse, uint64_t limit);
  const char* what() const noexcept override { return text.c_str(); }
};

uint64_t defaultHostMemoryLimit();

// One budget: bytes in use and the limit. Thread-safe.
class HostMemoryBudget {
 public:
  uint64_t limit();  // the default on first use when none was set
  void setLimit(uint64_t bytes);
  uint64_t inUse() const { return inUse_.load(std::memory_order_relaxed); }
  // Charges `bytes` (throws HostMemoryExhausted, charging nothing, when over) / gives them back.
  void charge(uint64_t bytes);
  void release(uint64_t bytes) noexcept { inUse_.fetch_sub(bytes, std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> inUse_{0};
  std::atomic<uint64_t> limit_{0};  // 0: not yet initialised (default on first use)
};

// The budget of the context in effect (currentContext().memory()), and shorthands for it.
HostMemoryBudget& hostMemoryBudget();
uint64_t hostMemoryLimit();
void setHostMemoryLimit(uint64_t bytes);
uint64_t hostMemoryInUse();

// Charges `bytes` (throws HostMemoryExhausted, charging nothing, when over) / gives them back.
void chargeHostMemory(uint64_t bytes);
void releaseHostMemory(uint64_t bytes) noexcept;
// Throws HostMemoryExhausted when `bytes` more would not fit; charges nothing (a
// check before making something whose size is known only as a count).
void requireHostMemory(uint64_t bytes);

// The user's text for a refused allocation: the budget's message, or the system's refusal.
std::string outOfMemoryText(const std::bad_alloc& e);

// "123", "64M", "16G" -> bytes; nullopt for anything else (or overflow).
std::optional<uint64_t> parseByteSize(std::string_view text);

// Applies PIR_MAX_MEMORY if set; returns an error text when it is malformed.
std::optional<std::string> applyHostMemoryEnvironment();


}  // namespace pir
