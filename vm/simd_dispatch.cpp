// Chooses the vm/simd_impl.h table for this CPU once, and the kernel thread
// helpers (a persistent helper thread per extra kernel thread, which spins
// briefly between splits: a split costs neither a thread creation nor, when splits
// come close together, a kernel wake-up; vm/spin_wait.h). The jobs of a split are
// claimed by whichever thread is free, so a helper the OS runs late delays nothing.
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

// Whether this thread runs a job of a split: a split inside it (a batched
// matmul's GEMM) runs on this thread alone, as the threads are taken.
thread_local bool insideSplit = false;

// Helper threads that, with the caller, run the jobs of one split; started on
// first need. Shared by every context (threads are a machine resource, not a
// setting): a split runs in its caller's context (ir/context.h), one split at a
// time.
//
// Jobs are claimed, not assigned: the caller and every helper take the next
// unclaimed job until none is left, so a helper that the OS has not scheduled
// yet (the other core busy with another process) delays nothing: the caller
// runs its jobs too. Which thread runs a job never changes its result (the jobs
// are fixed before the split; see parallelFor and parallelTasks).
//
// Invariants: `claim_` packs (generation, job count, next job); a job is
// claimed by a compare-and-swap that fails if the split changed, so a helper
// never runs a job of another split. jobs_ and context_ change only between
// splits, when every job of the previous one is done (done_ == its count), and
// a helper reads them only after a successful claim. A helper that sleeps
// checks the generation under m_, so no wake-up is lost.
class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }
  // Runs every job, on the caller and on up to `helpers` helper threads; returns
  // when all are done.
  void run(std::vector<std::function<void()>>& jobs, size_t helpers) {
    std::lock_guard<std::mutex> serial(runMutex_);  // one split at a time
    const uint64_t count = jobs.size();
    {
      std::unique_lock<std::mutex> lock(m_);
      while (workers_.size() < helpers) workers_.emplace_back([this] { loop(); });
      jobs_ = jobs.data();
      context_ = &currentContext();
      done_.store(0, std::memory_order_relaxed);
      ++generation_;
      claim_.store(pack(generation_, count, 0), std::memory_order_release);
    }
    if (sleepers_.load(std::memory_order_relaxed) > 0) wake_.notify_all();
    const uint64_t gen = generation_;
    while (runOne(gen)) {
    }
    auto allDone = [&] { return done_.load(std::memory_order_acquire) == count; };
    if (spinUntil(allDone)) return;
    std::unique_lock<std::mutex> lock(m_);
    finished_.wait(lock, allDone);
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

 private:
  // claim_'s fields: generation (24 bits, wraps), job count and next job (20 bits each).
  static constexpr uint64_t kField = 20, kFieldMask = (uint64_t{1} << kField) - 1, kGenMask = (uint64_t{1} << 24) - 1;
  static uint64_t pack(uint64_t gen, uint64_t count, uint64_t next) {
    return (gen & kGenMask) << (2 * kField) | count << kField | next;
  }
  static uint64_t genOf(uint64_t w) { return w >> (2 * kField); }
  static constexpr std::chrono::microseconds kLateSpin{20};

  // Claims and runs one job of generation `gen`; false when none is left.
  bool runOne(uint64_t gen) {
    uint64_t w = claim_.load(std::memory_order_acquire);
    for (;;) {
      const uint64_t count = (w >> kField) & kFieldMask, next = w & kFieldMask;
      if (genOf(w) != (gen & kGenMask) || next >= count) return false;
      if (claim_.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
        const uint64_t total = count;
        std::function<void()>& job = jobs_[next];
        {
          ContextScope scope(*context_);
          struct InsideSplit {
            InsideSplit() { insideSplit = true; }
            ~InsideSplit() { insideSplit = false; }
          } inside;
          job();
        }
        if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == total) {
          std::lock_guard<std::mutex> notify(m_);  // the caller checks done_ under m_ before it sleeps
          finished_.notify_all();
        }
        return true;
      }
    }
  }
  void loop() {
    uint64_t seen = 0;  // the last generation this helper looked at
    bool late = false;  // the last split's jobs were all taken before this helper came
    for (;;) {
      auto fresh = [&] { return genOf(claim_.load(std::memory_order_acquire)) != (seen & kGenMask); };
      // A helper that came too late to help (the other cores busy with other
      // processes) spins only briefly: its spinning would take time from them
      // and, with the caller running the jobs itself, save nothing.
      if (!spinUntil(fresh, late ? kLateSpin : kSpinLimit)) {
        std::unique_lock<std::mutex> lock(m_);
        sleepers_.fetch_add(1, std::memory_order_relaxed);
        wake_.wait(lock, [&] { return stop_ || fresh(); });
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
        if (stop_) return;
      }
      seen = genOf(claim_.load(std::memory_order_acquire));
      late = !runOne(seen);
      while (runOne(seen)) {
      }
    }
  }
  std::mutex runMutex_, m_;
  std::condition_variable wake_, finished_;
  std::vector<std::thread> workers_;
  std::function<void()>* jobs_ = nullptr;  // the current split's
  Context* context_ = nullptr;             // the current split's caller's
  uint64_t generation_ = 0;                // under runMutex_ (and m_)
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint64_t> done_{0};
  std::atomic<int> sleepers_{0};
  bool stop_ = false;
};

}  // namespace

void setKernelThreads(int n) { currentContext().setKernelThreads(n); }
int kernelThreads() { return currentContext().kernelThreads(); }

void parallelFor(int64_t n, int64_t minChunk, const std::function<void(int64_t, int64_t)>& body) {
  const int threads = insideSplit ? 1 : kernelThreads();
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
  Pool::get().run(jobs, jobs.size() - 1);
}

void parallelTasks(int64_t count, const std::function<void(int64_t)>& task) {
  const int64_t threads = std::min<int64_t>(insideSplit ? 1 : kernelThreads(), count);
  if (threads <= 1) {
    for (int64_t i = 0; i < count; ++i) task(i);
    return;
  }
  // One job per thread, a contiguous run of tasks each: the first run goes to the
  // caller (which claims first) and the next to the first helper, so consecutive
  // splits of the same rows (a GEMM's row blocks, then the elementwise op on its
  // result) give each core the part it last touched. A job a late helper has not
  // claimed is run by whichever thread is free.
  std::vector<std::function<void()>> jobs;
  jobs.reserve(static_cast<size_t>(threads));
  for (int64_t j = 0; j < threads; ++j)
    jobs.emplace_back([&task, j, count, threads] {
      for (int64_t i = j * count / threads, e = (j + 1) * count / threads; i < e; ++i) task(i);
    });
  Pool::get().run(jobs, static_cast<size_t>(threads - 1));
}

}  // namespace pir::vm::simd
