// Deep recursion without crashes. Calls nest to any depth (language.md §6); an
// algorithm that recurses once per nested call (autodiff differentiates callees
// first) runs on a thread with a large stack when the nesting is deep, and checks
// stackNearlyExhausted() where it recurses, so that past what the stack holds it
// fails with a located error instead of overflowing it.
#pragma once
#include <cstddef>
#include <functional>

namespace pir {

// The stack of a runWithLargeStack thread: reserved address space, committed only
// as it is used. About a million levels of a recursion of 1 KB frames.
inline constexpr size_t kLargeStackBytes = size_t(1) << 30;

// Runs `f` on a new thread with a kLargeStackBytes stack and waits for it; what
// `f` throws is rethrown here. If no such thread can be made, runs `f` here.
void runWithLargeStack(const std::function<void()>& f);

// True when less than 1 MiB of the calling thread's stack is left (the margin
// covers the callee frames, the error reporting and sanitizer frames).
bool stackNearlyExhausted();

}  // namespace pir
