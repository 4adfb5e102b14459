#include "ir/stack.h"

#include <pthread.h>

#include <cstdint>
#include <exception>

namespace pir {
namespace {

constexpr size_t kStackReserve = size_t(1) << 20;

struct Job {
  const std::function<void()>* f;
  std::exception_ptr error;
};

void* runJob(void* arg) {
  Job& job = *static_cast<Job*>(arg);
  try {
    (*job.f)();
  } catch (...) {
    job.error = std::current_exception();
  }
  return nullptr;
}

// The calling thread's stack: [low, high), found once per thread.
struct StackBounds {
  uintptr_t low = 0, high = 0;
  StackBounds() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* base = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &base, &size) == 0) {
      low = reinterpret_cast<uintptr_t>(base);
      high = low + size;
    }
    pthread_attr_destroy(&attr);
  }
};

}  // namespace

void runWithLargeStack(const std::function<void()>& f) {
  Job job{&f, nullptr};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, kLargeStackBytes) == 0 &&
              pthread_create(&thread, &attr, runJob, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) return f();  // no thread: the stack checks still stop a too-deep recursion
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

bool stackNearlyExhausted() {
  thread_local const StackBounds bounds;
  // The frame address is on the real stack even where a sanitizer moves locals.
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (here < bounds.low || here >= bounds.high) return false;  // unknown: trust the stack
  return here - bounds.low < kStackReserve;
}

}  // namespace pir
