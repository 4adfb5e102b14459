#include "vm/replica_pool.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "ir/checked_math.h"
#include "ir/context.h"
#include "ir/grouping.h"
#include "vm/fusion.h"
#include "vm/kernels_collective.h"
#include "vm/simd_kernels.h"
#include "vm/spin_wait.h"

namespace pir::vm {

int defaultThreads(const Communicator& comm) {
  int hw = static_cast<int>(std::thread::hardware_concurrency());
  if (hw <= 0) hw = 1;
  int sameMachine = 1;  // Open MPI tells each process how many of the job share its machine
  if (comm.processes() > 1)
    if (const char* s = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE")) sameMachine = std::max(1, std::atoi(s));
  return std::max(1, hw / sameMachine);
}

// OpenBLAS keeps one thread count per process (its own state, not pir's): the
// last run to set it wins; pir's own kernels take theirs from the context.
int setBlasThreads(int threads) {
  static std::mutex mu;
  static int userCap = -1, applied = -1;
  std::lock_guard lock(mu);
  if (userCap < 0) {  // read once, before pir ever sets the variable
    const char* s = std::getenv("OPENBLAS_NUM_THREADS");
    userCap = s && std::atoi(s) > 0 ? std::atoi(s) : 0;
  }
  if (userCap > 0) threads = std::min(threads, userCap);
  threads = std::max(1, threads);
  if (threads == applied) return applied;
  // vm/kernels_matmul.cpp loads OpenBLAS on the first large product; until
  // then the variable decides the size of the pool it starts with.
  setenv("OPENBLAS_NUM_THREADS", std::to_string(threads).c_str(), 1);
  for (const char* name : {"libopenblas.so.0", "libopenblas.so"}) {
    if (void* h = dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL)) {
      if (auto set = reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"))) set(threads);
      dlclose(h);
      break;
    }
  }
  applied = threads;
  return applied;
}

namespace {

// Up to `workers - 1` helper threads that, with the calling thread, run
// parallel loops. Indices are claimed from a shared counter: any thread may run
// any index. Supersteps are short (a data-parallel step meets every few hundred
// microseconds), so both sides spin briefly before sleeping (vm/spin_wait.h): a
// futex wake-up per hand-off would cost more than the work on a busy machine.
//
// A loop whose work is known to be small runs on the calling thread alone: a
// hand-off costs microseconds when the helpers spin and tens of microseconds
// when they sleep (or are not yet started), more than splitting a few
// microseconds of work saves. The work is estimated from the loop's last run
// (ReplicaCosts): a loop of unknown cost runs in parallel. The helpers start on
// the first parallel loop, so a run whose loops are all small starts none.
class Workers {
 public:
  explicit Workers(int workers) : workers_(workers), context_(&currentContext()) {}
  ~Workers() {
    {
      std::lock_guard lock(mu_);
      stop_.store(true);
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // fn(i, worker) for every i in [0, count), `worker` the index of the thread that
  // runs it (the caller is 0, the helpers 1 .. workers - 1); returns when all have
  // run. fn must not throw. `secondsPerItem`: the loop's cost estimate (< 0:
  // unknown), updated.
  using Item = std::function<void(size_t, int)>;
  void parallelFor(size_t count, const Item& fn, double& secondsPerItem) {
    if (count == 0) return;
    const bool small = secondsPerItem >= 0 && secondsPerItem * static_cast<double>(count) < kInlineBelowSeconds;
    if (workers_ <= 1 || count == 1 || small) {
      const auto start = Clock::now();
      for (size_t i = 0; i < count; ++i) fn(i, 0);
      learn(secondsPerItem, seconds(Clock::now() - start) / static_cast<double>(count));
      return;
    }
    startHelpers();
    {
      std::lock_guard lock(mu_);
      fn_ = &fn;
      count_ = count;
      next_.store(0);
      itemNanos_.store(0);
      busy_.store(threads_.size());
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    drain(0);
    if (!spinUntil([&] { return busy_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock lock(mu_);
      done_.wait(lock, [&] { return busy_.load() == 0; });
    }
    fn_ = nullptr;
    // The items' own time, not the hand-off's: a loop of small items measured in
    // parallel must be seen to be small.
    learn(secondsPerItem, 1e-9 * static_cast<double>(itemNanos_.load()) / static_cast<double>(count));
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
  // A measurement lowers the estimate at once but at most doubles it: on a busy
  // machine a superstep preempted mid-way measures milliseconds, and one such
  // outlier must not send the next supersteps to the helpers (a run of
  // supersteps that really grew crosses the threshold after a few).
  static void learn(double& estimate, double measured) {
    estimate = estimate < 0 ? measured : std::min(measured, 2 * estimate);
  }

  // Below this much estimated work a loop runs on the calling thread: about the
  // cost of waking a sleeping helper on a virtual machine, twice.
  static constexpr double kInlineBelowSeconds = 50e-6;

  void startHelpers() {
    while (static_cast<int>(threads_.size()) + 1 < workers_)
      threads_.emplace_back([this, worker = static_cast<int>(threads_.size()) + 1] {
        ContextScope scope(*context_);  // the run's
        serve(worker);
      });
  }
  void drain(int worker) {
    int64_t nanos = 0;
    for (size_t i; (i = next_.fetch_add(1)) < count_;) {
      const auto start = Clock::now();
      (*fn_)(i, worker);
      nanos += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    }
    itemNanos_.fetch_add(nanos, std::memory_order_relaxed);
  }
  void serve(int worker) {
    uint64_t seen = 0;
    for (;;) {
      if (!spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen || stop_.load(); })) {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
      }
      if (stop_.load()) return;
      seen = generation_.load(std::memory_order_acquire);
      drain(worker);
      if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(mu_);
        done_.notify_one();
      }
    }
  }

  const int workers_;
  Context* const context_;  // the run's
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_, done_;
  const Item* fn_ = nullptr;
  size_t count_ = 0;
  std::atomic<size_t> next_{0};
  std::atomic<size_t> busy_{0};
  std::atomic<int64_t> itemNanos_{0};  // the current loop's items' time, summed over threads
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
};

// A replica between supersteps: alive only while parked.
struct LiveReplica {
  std::unique_ptr<Interpreter> interp;
  std::unique_ptr<std::ostringstream> trace;
};

const CompiledGraph& graphOf(const Program& p, uint32_t graph) {
  return graph == kMainGraphId ? *p.main : *p.graphs[graph];
}

// Whether `s`, which may come from another process, is a replica parked at a
// collective of this program with an input of that collective's size. Only
// such a status is looked up in the program or trusted for a byte count: a
// process running another program must not make this one read outside its
// code or a peer's input.
bool parkedHere(const Program& p, const ReplicaStatus& s) {
  if (s.kind != ReplicaStatus::Parked) return false;
  if (s.graph != kMainGraphId && (s.graph >= p.graphs.size() || !p.graphs[s.graph])) return false;
  const CompiledGraph& g = graphOf(p, s.graph);
  if (s.pc >= g.code.size()) return false;
  const Instr& in = g.code[s.pc];
  if (in.opc != Opc::Collective || in.a >= g.collectives.size() || size_t(in.args) + 1 >= g.argTypes.size())
    return false;
  return s.inputBytes == HostTensor::byteSize(*g.argTypes[in.args]);
}

// Charges host memory for as long as it lives.
class HostMemoryCharge {
 public:
  explicit HostMemoryCharge(uint64_t bytes) : bytes_(bytes) { chargeHostMemory(bytes); }
  ~HostMemoryCharge() { releaseHostMemory(bytes_); }
  HostMemoryCharge(const HostMemoryCharge&) = delete;
  HostMemoryCharge& operator=(const HostMemoryCharge&) = delete;

 private:
  uint64_t bytes_;
};

}  // namespace

uint64_t replicaBookkeepingBytes(const Module& m, const Program& p) {
  constexpr uint64_t kBlock = 32;  // what the allocator adds to each heap block
  auto frame = [](const CompiledGraph& g) {
    uint64_t b = sizeof(Frame) + 4 * kBlock + g.slots.size() * sizeof(std::byte*) + g.maxOperands * sizeof(TensorRef);
    for (const TensorType* t : g.returnTypes) b = saturatingAdd(b, HostTensor::byteSize(*t));  // repeat staging
    return b;
  };
  uint64_t b = sizeof(Interpreter) + sizeof(LiveReplica) + sizeof(ReplicaOutcome) + sizeof(ReplicaStatus) +
               4 * sizeof(void*) + 4 * kBlock;
  b += p.graphs.size() * sizeof(void*) + m.resources.size() * (sizeof(int64_t) + 1);
  b = saturatingAdd(b, frame(*p.main));
  for (const auto& g : p.graphs)
    if (g) b = saturatingAdd(b, frame(*g));
  // The session state's tables, and a run backup's copy of the written variables'.
  auto variable = [&](uint32_t i) {
    return sizeof(HostTensor) + p.variables[i]->type->shape.size() * sizeof(int64_t) + kBlock;
  };
  for (uint32_t i = 0; i < p.variables.size(); ++i) b = saturatingAdd(b, variable(i));
  for (uint32_t i : p.main->writtenVars)
    if (i < p.variables.size()) b = saturatingAdd(b, variable(i));
  b += m.resources.size() * sizeof(AlignedBytes) + sizeof(AlignedBytes) + 3 * (sizeof(std::vector<int>) + kBlock);
  return b;
}

void runReplicas(const Module& m, const Program& p, DeviceState& state, const SourceManager* sources, bool trace,
                 int threads, Communicator& comm, std::vector<ReplicaOutcome>& outcomes, uint64_t maxSteps,
                 ReplicaCosts* costs) {
  ReplicaCosts thisRun;
  if (!costs) costs = &thisRun;
  if (costs->program != &p) {  // another program: its estimates and arenas do not apply
    *costs = ReplicaCosts{};
    costs->program = &p;
  }
  const int64_t R = std::max<int64_t>(1, m.options.replication);
  const int64_t first = comm.firstLocal(R), count = comm.localCount(R);
  costs->arenas.resize(static_cast<size_t>(count));
  // This process's replicas' bookkeeping, charged for the run (the session has
  // checked R times it against the budget before anything ran).
  HostMemoryCharge bookkeeping(saturatingMul(replicaBookkeepingBytes(m, p), static_cast<uint64_t>(count)));
  outcomes.assign(static_cast<size_t>(R), ReplicaOutcome{});
  const int workers = static_cast<int>(std::clamp<int64_t>(count, 1, std::max(1, threads)));
  // Each running replica's share of the budget, for the BLAS and for pir's own
  // split kernels (large elementwise loops, GEMM column blocks); the two never run
  // at once in a replica. A user's OPENBLAS_NUM_THREADS caps both.
  simd::setKernelThreads(setBlasThreads(std::max(1, threads) / workers));
  // Fused instructions' working memory, one per worker thread: it grows with the
  // threads, not with the replicas, and is charged to this run's budget.
  std::vector<FusionScratch> scratch(static_cast<size_t>(workers));
  Workers pool(workers);

  std::vector<LiveReplica> live(static_cast<size_t>(count));
  std::vector<ReplicaStatus> status(static_cast<size_t>(R));
  auto retire = [&](int64_t local) {
    LiveReplica& l = live[static_cast<size_t>(local)];
    ReplicaOutcome& o = outcomes[static_cast<size_t>(first + local)];
    costs->arenas[static_cast<size_t>(local)] = l.interp->releaseArenas();  // this replica's slot alone
    o.printed = std::move(l.interp->printed());
    o.written = l.interp->written();
    o.branches = std::move(l.interp->branches());
    o.stepsTaken = l.interp->stepsTaken();
    if (l.trace) o.trace = l.trace->str();
    l = LiveReplica{};  // frees the replica's frames
  };
  auto fail = [&](int64_t local, RuntimeFault f) {
    outcomes[static_cast<size_t>(first + local)].fault.emplace(std::move(f));
    status[static_cast<size_t>(first + local)] = ReplicaStatus{ReplicaStatus::Failed};
    if (live[static_cast<size_t>(local)].interp) retire(local);
  };
  // Runs one replica on worker thread `worker` until it parks, finishes or fails.
  auto step = [&](int64_t local, int worker) {
    LiveReplica& l = live[static_cast<size_t>(local)];
    const int64_t r = first + local;
    try {
      if (!l.interp) {
        if (trace) l.trace = std::make_unique<std::ostringstream>();
        l.interp = std::make_unique<Interpreter>(m, p, state, static_cast<int>(r), l.trace.get(), sources);
        l.interp->adoptArenas(std::move(costs->arenas[static_cast<size_t>(local)]));
        l.interp->setStepBudget(maxSteps);
        l.interp->start();
      }
      l.interp->setFusionScratch(&scratch[static_cast<size_t>(worker)]);
      if (l.interp->resume()) {
        status[static_cast<size_t>(r)] = ReplicaStatus{ReplicaStatus::Finished};
        retire(local);
      } else {
        const PendingCollective& pc = l.interp->pending();
        status[static_cast<size_t>(r)] = ReplicaStatus{ReplicaStatus::Parked, pc.graph, pc.pc, 0,
                                                       HostTensor::byteSize(*pc.inType)};
      }
    } catch (const RuntimeFault& f) {
      fail(local, f);
    } catch (const std::exception& e) {
      fail(local, RuntimeFault(nullptr, std::string("run: ") + e.what()));
    }
  };

  std::vector<int64_t> runnable(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) runnable[static_cast<size_t>(i)] = i;
  std::map<std::pair<int64_t, int64_t>, ReplicaGroups> groupings;
  std::vector<const std::byte*> inputs(static_cast<size_t>(R), nullptr);
  struct Meeting {
    CollectiveJob job;
    std::vector<int> members;
  };
  try {
  for (;;) {
    pool.parallelFor(runnable.size(), [&](size_t i, int worker) { step(runnable[i], worker); }, costs->stepSeconds);
    runnable.clear();
    if (comm.processes() > 1) {
      std::string where;
      for (int64_t local = 0; local < count && where.empty(); ++local)
        if (const Interpreter* in = live[static_cast<size_t>(local)].interp.get()) {
          const Op* op = in->pending().instr ? in->pending().instr->op : nullptr;
          if (op && sources) where = locationText(*sources, op->loc) + ": error: " + std::string(op->info().name);
          if (!where.empty() && R > 1) where += " (replica " + std::to_string(first + local) + ")";
        }
      comm.noteWaitingAt(where);
    }
    comm.shareStatus(status, first, count);
    // Another process's entry that this program cannot hold: failed, so that no
    // group meets with it (its members are refused below).
    std::vector<char> foreign(static_cast<size_t>(R), 0);
    for (int64_t r = 0; r < R; ++r) {
      ReplicaStatus& s = status[static_cast<size_t>(r)];
      if (r >= first && r < first + count) continue;
      if (s.kind > ReplicaStatus::Failed || (s.kind == ReplicaStatus::Parked && !parkedHere(p, s))) {
        foreign[static_cast<size_t>(r)] = 1;
        s = ReplicaStatus{ReplicaStatus::Failed};
      }
    }

    // Who meets: decided from the global table alone, so every process agrees.
    std::vector<Meeting> meetings;
    std::vector<int64_t> senders;
    std::vector<char> handled(static_cast<size_t>(R), 0);
    std::vector<std::pair<int64_t, std::pair<std::string, bool>>> refused;  // (replica, (message, aborted))
    for (int64_t r = 0; r < R; ++r) {
      const ReplicaStatus& s = status[static_cast<size_t>(r)];
      if (s.kind != ReplicaStatus::Parked || handled[static_cast<size_t>(r)]) continue;
      const CompiledGraph& g = graphOf(p, s.graph);
      const Instr& in = g.code[s.pc];
      const CollectiveSpec& spec = g.collectives[in.a];
      auto key = std::make_pair(spec.stride, spec.groupSize);
      auto it = groupings.find(key);
      if (it == groupings.end()) it = groupings.emplace(key, ReplicaGroups(R, ReplicaGrouping{spec.stride, spec.groupSize})).first;
      const std::vector<int>& members = it->second.members(it->second.groupOf(static_cast<int>(r)));
      int gone = -1, elsewhere = -1, alien = -1;
      for (int mbr : members) {
        const ReplicaStatus& ms = status[static_cast<size_t>(mbr)];
        if (foreign[static_cast<size_t>(mbr)]) {
          if (alien < 0) alien = mbr;
        } else if (ms.kind != ReplicaStatus::Parked) {
          if (gone < 0) gone = mbr;
        } else if (ms.graph != s.graph || ms.pc != s.pc) {
          if (elsewhere < 0) elsewhere = mbr;
        }
      }
      for (int mbr : members) handled[static_cast<size_t>(mbr)] = 1;
      if (gone >= 0 || elsewhere >= 0 || alien >= 0) {
        for (int mbr : members) {
          const ReplicaStatus& ms = status[static_cast<size_t>(mbr)];
          if (ms.kind != ReplicaStatus::Parked) continue;
          if (alien >= 0) {
            refused.push_back({mbr, {"replica " + std::to_string(alien) +
                                         " of the group waits at a collective this program does not have, or with "
                                         "another operand size (the MPI processes run different programs)",
                                     false}});
          } else if (gone >= 0) {
            refused.push_back({mbr, {"aborted", true}});
          } else {
            int other = -1;  // the first member waiting at another collective than mbr
            for (int o : members)
              if (status[static_cast<size_t>(o)].graph != ms.graph || status[static_cast<size_t>(o)].pc != ms.pc) {
                other = o;
                break;
              }
            refused.push_back({mbr, {"replica " + std::to_string(other) + " of the group reached a different collective",
                                     false}});
          }
        }
        continue;
      }
      Meeting meeting;
      meeting.job.spec = &spec;
      meeting.job.inType = g.argTypes[in.args];
      meeting.job.outType = g.argTypes[in.args + 1];
      meeting.members = members;
      meetings.push_back(std::move(meeting));
      senders.insert(senders.end(), members.begin(), members.end());
    }
    if (meetings.empty() && refused.empty()) break;  // nobody waits: the run is over

    std::sort(senders.begin(), senders.end());
    for (int64_t r : senders)
      if (r >= first && r < first + count) inputs[static_cast<size_t>(r)] = live[static_cast<size_t>(r - first)].interp->pending().input;
    comm.shareInputs(senders, status, inputs);
    if (comm.processes() > 1) comm.noteWaitingAt("");

    std::vector<std::pair<uint32_t, int64_t>> items;  // (meeting, item)
    for (size_t k = 0; k < meetings.size(); ++k) {
      CollectiveJob& job = meetings[k].job;
      for (int mbr : meetings[k].members) {
        job.inputs.push_back(inputs[static_cast<size_t>(mbr)]);
        const bool local = mbr >= first && mbr < first + count;
        job.outputs.push_back(local ? live[static_cast<size_t>(mbr - first)].interp->pending().output : nullptr);
      }
      const int64_t n = collectiveItems(job);
      for (int64_t i = 0; i < n; ++i) items.emplace_back(static_cast<uint32_t>(k), i);
    }
    pool.parallelFor(
        items.size(), [&](size_t i, int) { runCollectiveItem(meetings[items[i].first].job, items[i].second); },
        costs->collectiveItemSeconds);

    for (const Meeting& meeting : meetings)
      for (int mbr : meeting.members)
        if (mbr >= first && mbr < first + count) {
          live[static_cast<size_t>(mbr - first)].interp->completeCollective();
          runnable.push_back(mbr - first);
        }
    for (auto& [r, why] : refused) {
      if (r < first || r >= first + count) {
        status[static_cast<size_t>(r)] = ReplicaStatus{ReplicaStatus::Failed};
        continue;
      }
      try {
        live[static_cast<size_t>(r - first)].interp->faultAtPending(why.first, why.second);
      } catch (const RuntimeFault& f) {
        fail(r - first, f);
      }
    }
    std::sort(runnable.begin(), runnable.end());
  }
  } catch (const PeerLost& e) {
    // Every local replica stops: those waiting at a collective report it there.
    for (int64_t local = 0; local < count; ++local) {
      ReplicaOutcome& o = outcomes[static_cast<size_t>(first + local)];
      if (o.fault) continue;
      LiveReplica& l = live[static_cast<size_t>(local)];
      if (!l.interp) {
        o.fault.emplace(nullptr, std::string("run: ") + e.what());
        continue;
      }
      try {
        l.interp->faultAtPending(e.what(), false);
      } catch (const RuntimeFault& f) {
        fail(local, f);
      }
    }
  }
  if (comm.processes() > 1) comm.noteWaitingAt("");
  try {
    comm.shareOutcomes(outcomes, first, count);
  } catch (const PeerLost& e) {
    for (int64_t local = 0; local < count; ++local)
      if (!outcomes[static_cast<size_t>(first + local)].fault)
        outcomes[static_cast<size_t>(first + local)].fault.emplace(nullptr, std::string("run: ") + e.what());
  }
}

}  // namespace pir::vm
