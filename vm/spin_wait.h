// Brief spinning before sleeping, for hand-offs between threads that come every
// few microseconds (kernel-thread splits, replica supersteps).
#pragma once
#include <chrono>

namespace pir::vm {

// Spins (with the CPU's pause hint) until `ready()` holds or about 200 us have
// passed; returns whether it holds. Waking a sleeping thread through the kernel
// (futex) costs tens of microseconds on a virtual machine, more than a short
// split saves, so both sides of a hand-off spin first and sleep only when no work
// follows soon, as OpenMP runtimes do (KMP_BLOCKTIME).
template <class Ready>
bool spinUntil(Ready ready) {
  constexpr auto kSpin = std::chrono::microseconds(200);
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
}

}  // namespace pir::vm
