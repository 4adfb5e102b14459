#include "ir/context.h"

#include <algorithm>

#include "ir/interrupt.h"

namespace pir {
namespace {

// The calling thread's context; null: the default one.
thread_local Context* tCurrent = nullptr;

// The interrupt signals the process has acknowledged (Context::clearInterrupt):
// with the count of those raised (ir/interrupt.h), the one interrupt source.
std::atomic<uint64_t> gSignalsAcknowledged{0};

}  // namespace

Context::Context() = default;
Context::~Context() = default;

void Context::setKernelThreads(int n) { kernelThreads_.store(std::clamp(n, 1, 64), std::memory_order_relaxed); }

bool Context::interruptRequested() const {
  return interrupted_.load(std::memory_order_relaxed) ||
         gSignalsAcknowledged.load(std::memory_order_relaxed) != interruptSignalCount();
}

void Context::clearInterrupt() {
  interrupted_.store(false, std::memory_order_relaxed);
  gSignalsAcknowledged.store(interruptSignalCount(), std::memory_order_relaxed);
}

Context& currentContext() { return tCurrent ? *tCurrent : defaultContext(); }

Context& defaultContext() {
  // The context of code that makes none (the `pir` tool, tests of the layers):
  // one per process, made on first use and never destroyed, so tensors that
  // outlive main() may still release their charge to it.
  static Context* const fallback = new Context();
  return *fallback;
}

ContextScope::ContextScope(Context& context) : previous_(tCurrent) { tCurrent = &context; }
ContextScope::~ContextScope() { tCurrent = previous_; }

}  // namespace pir
