// The context a program is parsed, transformed and run in: what used to be
// process state. It owns
//   - the host-memory budget (ir/host_memory.h): its own, or the one of another
//     context it shares (useMemoryOf),
//   - the kernel thread count (vm/simd_kernels.h),
//   - the interrupt state (ir/interrupt.h): its own request; the process's one
//     interrupt source (the SIGINT count) reaches every context,
//   - per-layer state by type (slot<T>()), e.g. the pass registry passes/ keeps
//     (passes/pass_manager.h) without ir/ knowing it.
// Two contexts in one process share none of it unless told to
// (tests/unit/context_test.cpp).
//
// Which context is in effect is a property of the calling thread: a
// ContextScope installs one for its lifetime; without one, a thread uses the
// default context (the `pir` tool's, and the tests'). Threads that work for a
// caller (kernel helpers, replica workers) install the caller's context.
// A context outlives everything made while it was in effect (tensors remember
// the budget they were charged to).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <typeindex>
#include <utility>
#include <vector>

#include "ir/host_memory.h"

namespace pir {

class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  HostMemoryBudget& memory() { return *budget_; }
  // Charges this context's host memory to `other`'s budget from now on (the
  // `pir` tool's contexts share the budget its --max-memory sets).
  void useMemoryOf(Context& other) { budget_ = &other.memory(); }

  // Threads pir's own split kernels may use (1..64).
  int kernelThreads() const { return kernelThreads_.load(std::memory_order_relaxed); }
  void setKernelThreads(int n);

  // Interrupts: a request made here (interrupt()), or an interrupt signal the
  // process has not acknowledged (ir/interrupt.h's one source). Thread-safe.
  void interrupt() { interrupted_.store(true, std::memory_order_relaxed); }
  bool interruptRequested() const;
  // Forgets this context's request and acknowledges the signals so far (a
  // Ctrl-C is consumed once, by whichever context clears first).
  void clearInterrupt();

  // The state of type T this context keeps for a layer above ir/, made (T())
  // on first use.
  template <class T>
  T& slot() {
    std::lock_guard<std::mutex> lock(slotsMutex_);
    for (auto& s : slots_)
      if (s.type == std::type_index(typeid(T))) return *static_cast<T*>(s.object.get());
    auto object = std::make_shared<T>();
    T& ref = *object;
    slots_.push_back({std::type_index(typeid(T)), std::move(object)});
    return ref;
  }

 private:
  HostMemoryBudget memory_;
  HostMemoryBudget* budget_ = &memory_;
  std::atomic<int> kernelThreads_{1};
  std::atomic<bool> interrupted_{false};
  struct Slot {
    std::type_index type;
    std::shared_ptr<void> object;
  };
  std::mutex slotsMutex_;
  std::vector<Slot> slots_;
};

// The context in effect on the calling thread.
Context& currentContext();
// The context of threads that install none (the `pir` tool's).
Context& defaultContext();

// Puts `context` in effect on this thread until destroyed (they nest).
class ContextScope {
 public:
  explicit ContextScope(Context& context);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  Context* previous_;
};

}  // namespace pir
