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
#include <stdexcept>
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
// Job j belongs to thread j (the caller is thread 0, helper i thread i): consecutive
// splits of the same data (a GEMM's row blocks, then the elementwise ops on its
// result, then next step's update of the same weight) give each core the part it
// last touched, so cache lines stay in one core's cache instead of moving between
// cores on every op. A thread that has run its own job takes any job still
// unclaimed, so a helper the OS has not scheduled yet (the other core busy with
// another process) delays nothing: the caller runs its job too. Which thread runs
// a job never changes its result (the jobs are fixed before the split; see
// parallelFor and parallelTasks).
//
// Invariants: a split has at most 64 jobs (kernelThreads() <= 64), one bit each in
// `taken_`; bits of jobs the split does not have, and every bit between splits, are
// set. A job is claimed by setting its bit (fetch_or): whoever turns it from clear
// to set runs it, so each job runs once, and a claim can only succeed for the
// current split. jobs_ and context_ change only between splits, when every job of
// the previous one is done (done_ == its count) and every bit is set; a thread reads
// them only after a successful claim, whose acquire pairs with the release that
// published the split. A helper that sleeps checks `taken_` under m_, so no wake-up
// is lost.
class Pool {
 public:
  static Pool& get() {
    static Pool pool;
    return pool;
  }
  // Runs every job (at most 64), on the caller and on up to `helpers` helper
  // threads; returns when all are done. Without `wakeSleepers`, helpers asleep stay
  // asleep (the caller and the helpers still spinning run the jobs).
  void run(std::vector<std::function<void()>>& jobs, size_t helpers, bool wakeSleepers = true) {
    std::lock_guard<std::mutex> serial(runMutex_);  // one split at a time
    const uint64_t count = jobs.size();
    if (count > 64) throw std::logic_error("a kernel-thread split has at most 64 jobs");
    {
      std::unique_lock<std::mutex> lock(m_);
      while (workers_.size() < helpers) {
        const size_t index = workers_.size() + 1;
        workers_.emplace_back([this, index] { loop(index); });
      }
      jobs_ = jobs.data();
      count_ = count;
      context_ = &currentContext();
      done_.store(0, std::memory_order_relaxed);
      taken_.store(count == 64 ? 0 : ~uint64_t{0} << count, std::memory_order_release);
    }
    if (wakeSleepers && sleepers_.load(std::memory_order_relaxed) > 0) wake_.notify_all();
    while (runOne(0)) {
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
  static constexpr uint64_t kAllTaken = ~uint64_t{0};
  static constexpr std::chrono::microseconds kLateSpin{20};

  // Claims and runs one job: job `own` if it is free, else the first free one;
  // false when none is left.
  bool runOne(size_t own) {
    uint64_t taken = taken_.load(std::memory_order_acquire);
    for (;;) {
      if (taken == kAllTaken) return false;
      const uint64_t bit = own < 64 && !(taken >> own & 1) ? uint64_t{1} << own : ~taken & (taken + 1);
      taken = taken_.fetch_or(bit, std::memory_order_acq_rel);
      if (taken & bit) continue;  // another thread claimed it first
      const size_t job = static_cast<size_t>(__builtin_ctzll(bit));
      const uint64_t total = count_;
      {
        ContextScope scope(*context_);
        struct InsideSplit {
          InsideSplit() { insideSplit = true; }
          ~InsideSplit() { insideSplit = false; }
        } inside;
        jobs_[job]();
      }
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == total) {
        std::lock_guard<std::mutex> notify(m_);  // the caller checks done_ under m_ before it sleeps
        finished_.notify_all();
      }
      return true;
    }
  }
  void loop(size_t index) {
    bool late = false;  // the last split's jobs were all taken before this helper came
    for (;;) {
      auto open = [&] { return taken_.load(std::memory_order_acquire) != kAllTaken; };
      // A helper that came too late to help (the other cores busy with other
      // processes) spins only briefly: its spinning would take time from them
      // and, with the caller running the jobs itself, save nothing.
      if (!spinUntil(open, late ? kLateSpin : kSpinLimit)) {
        std::unique_lock<std::mutex> lock(m_);
        sleepers_.fetch_add(1, std::memory_order_relaxed);
        wake_.wait(lock, [&] { return stop_ || open(); });
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
        if (stop_) return;
      }
      late = !runOne(index);
      while (runOne(index)) {
      }
    }
  }
  std::mutex runMutex_, m_;
  std::condition_variable wake_, finished_;
  std::vector<std::thread> workers_;
  std::function<void()>* jobs_ = nullptr;  // the current split's
  uint64_t count_ = 0;                     // its number of jobs
  Context* context_ = nullptr;             // the current split's caller's
  std::atomic<uint64_t> taken_{kAllTaken};
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
  // Waking a helper that has gone to sleep costs the caller a futex call and the
  // helper tens of microseconds on a virtual machine, longer than a split of a few
  // minimum chunks saves: such a split runs on the threads awake (the caller alone if
  // none is), and only one of kWakeChunks chunks or more wakes them. Helpers are awake
  // while splits come often (each spins kSpinLimit after its last job), so this
  // changes only sparse small splits: an unrolled RNN's gradient sums of a 128x128
  // weight, 15 per step between long unsplit stretches, took 12% longer at two threads
  // than at one.
  constexpr int64_t kWakeChunks = 32;
  Pool::get().run(jobs, jobs.size() - 1, minChunk <= 0 || n / minChunk >= kWakeChunks);
}

void parallelTasks(int64_t count, const std::function<void(int64_t)>& task) {
  const int64_t threads = std::min<int64_t>(insideSplit ? 1 : kernelThreads(), count);
  if (threads <= 1) {
    for (int64_t i = 0; i < count; ++i) task(i);
    return;
  }
  // One job per thread, a contiguous run of tasks each: the first run goes to the
  // caller and the next to the first helper (Pool), so consecutive splits of the same
  // rows (a GEMM's row blocks, then the elementwise op on its result) give each core
  // the part it last touched. A job a late helper has not claimed is run by
  // whichever thread is free.
  std::vector<std::function<void()>> jobs;
  jobs.reserve(static_cast<size_t>(threads));
  for (int64_t j = 0; j < threads; ++j)
    jobs.emplace_back([&task, j, count, threads] {
      for (int64_t i = j * count / threads, e = (j + 1) * count / threads; i < e; ++i) task(i);
    });
  Pool::get().run(jobs, static_cast<size_t>(threads - 1));
}

}  // namespace pir::vm::simd
