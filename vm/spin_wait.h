// Brief spinning before sleeping, for hand-offs between threads that come every
// few microseconds (kernel-thread splits, replica supersteps).
#pragma once
#include <chrono>
#include <thread>

namespace pir::vm {

// Spins until `ready()` holds or about `limit` (default 200 us) has passed; returns
// whether it holds.
// Waking a sleeping thread through the kernel (futex) costs tens of microseconds on a
// virtual machine, more than a short split saves, so both sides of a hand-off spin
// first and sleep only when no work follows soon, as OpenMP runtimes do
// (KMP_BLOCKTIME). The first 20 us spin with the CPU's pause hint only; after that each
// round of polls also yields the core, so that on a busy machine (more runnable threads
// than cores) the spinner gives its time slice to the thread it is waiting for, or to
// another process, instead of burning it: a yield with nothing else to run returns at
// once, so an idle machine sees the same latency.
inline constexpr std::chrono::microseconds kSpinLimit{200};
template <class Ready>
bool spinUntil(Ready ready, std::chrono::microseconds limit = kSpinLimit) {
  constexpr auto kPauseOnly = std::chrono::microseconds(20);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited >= limit) return false;
    if (waited >= kPauseOnly) std::this_thread::yield();
  }
}

}  // namespace pir::vm
