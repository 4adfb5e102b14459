// Ctrl-C (tools.md §5: Ctrl-C abandons the current input) as one process-wide
// request flag. A SIGINT handler only sets it (a lock-free atomic store is
// async-signal-safe); long work polls it at safe points and stops with a
// located "interrupted" error, after which the usual error handling restores
// the state (a failed run, a rolled-back REPL input):
//   - the VM once per slice of its step budget (vm/interpreter.h), so
//     loops, repeats and call chains stop, a single long kernel does not;
//   - the parser once per statement (frontend/parser.cpp);
//   - the NPY reader once per block it reads (vm/npy.cpp).
// It lives in ir/ because every layer above polls it. Whoever starts the next
// input clears it (the REPL before reading a line and after each input).
#pragma once
#include <atomic>

namespace pir {

// The text of the error an interrupted operation reports ("error: OP: interrupted").
inline constexpr const char* kInterruptedMessage = "interrupted";

namespace detail {
extern std::atomic<bool> interruptFlag;
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
}  // namespace detail

// Async-signal-safe.
inline void requestInterrupt() { detail::interruptFlag.store(true, std::memory_order_relaxed); }
inline bool interruptRequested() { return detail::interruptFlag.load(std::memory_order_relaxed); }
inline void clearInterrupt() { detail::interruptFlag.store(false, std::memory_order_relaxed); }

}  // namespace pir
