// Chooses the vm/simd_impl.h table for this CPU once, and the kernel thread
// helper (a single persistent helper thread per extra kernel thread, which spins
// briefly between splits: a split costs neither a thread creation nor, when splits
// come close together, a kernel wake-up; vm/spin_wait.h).
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "ir/context.h"
#include "vm/simd_kernels.h"
#include "vm/spin_wait.h"

namespace pir::vm::simd {
namespace sse2 { const Table& makeTable(); }
namespace avx2 { const Table& makeTable(); }
namespace avx512 { const Table& makeTable(); }

namespace {
bool hasAvx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool hasAvx512() {
  return hasAvx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
}
}  // namespace

const Table* tableFor(const char* isa) {
  __builtin_cpu_init();
  if (std::strcmp(isa, "sse2") == 0) return &sse2::makeTable();
  if (std::strcmp(isa, "avx2") == 0) return hasAvx2() ? &avx2::makeTable() : nullptr;
  if (std::strcmp(isa, "avx512") == 0) return hasAvx512() ? &avx512::makeTable() : nullptr;
  return nullptr;
}

const Table& table() {
  static const Table* const chosen = [] {
    if (const Table* t = tableFor("avx512")) return t;
    if (const Table* t = tableFor("avx2")) return t;
    return tableFor("sse2");
  }();
  return *chosen;
}

// ---- threads --------------------------------------------------------------

namespace {

// Helper threads, each running the jobs handed to it; started on first need.
// Shared by every context (threads are a machine resource, not a setting): a
// split runs in its caller's context (ir/context.h), one split at a time.
// Invariants: generation_ and slots_ change under m_ (a helper that sleeps checks
// them under m_, so no wake-up is lost); pending_ counts helpers still running a
// job of the current split.
class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }
  // Runs jobs[0] on the caller and jobs[1..] on helpers; returns when all are done.
  void run(std::vector<std::function<void()>>& jobs) {
    std::lock_guard<std::mutex> serial(runMutex_);  // one split at a time
    const size_t helpers = jobs.size() - 1;
    {
      std::unique_lock<std::mutex> lock(m_);
      while (workers_.size() < helpers) {
        const size_t id = workers_.size();
        slots_.push_back(nullptr);
        workers_.emplace_back([this, id] { loop(id); });
      }
      for (size_t h = 0; h < helpers; ++h) slots_[h] = &jobs[h + 1];
      context_ = &currentContext();
      pending_.store(helpers, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    jobs[0]();
    if (spinUntil([&] { return pending_.load(std::memory_order_acquire) == 0; })) return;
    std::unique_lock<std::mutex> lock(m_);
    done_.wait(lock, [&] { return pending_.load(std::memory_order_acquire) == 0; });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

 private:
  void loop(size_t id) {
    uint64_t seen = 0;
    for (;;) {
      spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; });
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [&] {
        return stop_ || (generation_.load(std::memory_order_relaxed) != seen && slots_[id] != nullptr);
      });
      if (stop_) return;
      seen = generation_.load(std::memory_order_relaxed);
      std::function<void()>* job = slots_[id];
      slots_[id] = nullptr;
      Context& context = *context_;
      lock.unlock();
      {
        ContextScope scope(context);
        (*job)();
      }
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> notify(m_);  // the caller checks pending_ under m_ before it sleeps
        done_.notify_all();
      }
    }
  }
  std::mutex runMutex_, m_;
  std::condition_variable cv_, done_;
  std::vector<std::thread> workers_;
  std::vector<std::function<void()>*> slots_;
  Context* context_ = nullptr;  // the current split's caller's
  std::atomic<size_t> pending_{0};
  std::atomic<uint64_t> generation_{0};
  bool stop_ = false;
};

}  // namespace

void setKernelThreads(int n) { currentContext().setKernelThreads(n); }
int kernelThreads() { return currentContext().kernelThreads(); }

void parallelFor(int64_t n, int64_t minChunk, const std::function<void(int64_t, int64_t)>& body) {
  const int threads = kernelThreads();
  int64_t parts = threads;
  if (minChunk > 0) parts = std::min<int64_t>(parts, n / std::max<int64_t>(minChunk, 1));
  if (parts <= 1) {
    if (n > 0) body(0, n);
    return;
  }
  // Chunk bounds are multiples of 64 elements (whole vectors, whole cache lines).
  const int64_t per = ((n + parts - 1) / parts + 63) / 64 * 64;
  std::vector<std::function<void()>> jobs;
  for (int64_t b = 0; b < n; b += per) {
    const int64_t e = std::min(n, b + per);
    jobs.emplace_back([&body, b, e] { body(b, e); });
  }
  if (jobs.size() == 1) {
    jobs[0]();
    return;
  }
  Pool::get().run(jobs);
}

void parallelTasks(int64_t count, const std::function<void(int64_t)>& task) {
  const int64_t parts = std::min<int64_t>(kernelThreads(), count);
  if (parts <= 1) {
    for (int64_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::vector<std::function<void()>> jobs;
  for (int64_t p = 0; p < parts; ++p)
    jobs.emplace_back([&task, p, parts, count] {
      for (int64_t i = p; i < count; i += parts) task(i);
    });
  Pool::get().run(jobs);
}

}  // namespace pir::vm::simd
