// Ctrl-C (tools.md §5: Ctrl-C abandons the current input). A SIGINT handler
// only raises the process's one interrupt source, a lock-free count of
// interrupt signals (raiseInterruptSignal: async-signal-safe). Every context
// (ir/context.h) observes it: a context is interrupted when it was asked to be
// (Context::interrupt) or when a signal came that no context has acknowledged
// (clearInterrupt) yet; so one context can be stopped without stopping
// another, and a Ctrl-C reaches all.
// Long work polls interruptRequested() (the context in effect) at safe points
// and stops with a located "interrupted" error, after which the usual error
// handling restores the state (a failed run, a rolled-back REPL input):
//   - the VM once per slice of its step budget (vm/interpreter.h), so
//     loops, repeats and call chains stop, a single long kernel does not;
//   - the parser once per statement (frontend/parser.cpp);
//   - the NPY reader once per block it reads (vm/npy.cpp).
// It lives in ir/ because every layer above polls it. Whoever starts the next
// input clears it (the REPL before reading a line and after each input).
#pragma once
#include <atomic>
#include <cstdint>

namespace pir {

// The text of the error an interrupted operation reports ("error: OP: interrupted").
inline constexpr const char* kInterruptedMessage = "interrupted";

namespace detail {
// The one piece of interrupt state a signal handler can reach: process-wide by
// necessity (docs/decisions.md "One interrupt source").
extern std::atomic<uint64_t> interruptSignals;
static_assert(std::atomic<uint64_t>::is_always_lock_free, "raised from a signal handler");
}  // namespace detail

// Async-signal-safe: what a SIGINT handler calls.
inline void raiseInterruptSignal() noexcept { detail::interruptSignals.fetch_add(1, std::memory_order_relaxed); }
// How many interrupt signals the process has had.
inline uint64_t interruptSignalCount() noexcept { return detail::interruptSignals.load(std::memory_order_relaxed); }

// The context in effect (currentContext()): ask it to stop, ask whether it
// should, forget its request and acknowledge the signals so far.
void requestInterrupt();
bool interruptRequested();
void clearInterrupt();

}  // namespace pir
