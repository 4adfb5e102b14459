// Replica scaling and collective cost, as ratios against references
// measured in the same run:
//   BM_AllReduceVsMemcpy   an in-place f32[512,512] all-reduce over 2 replicas
//                          (the whole VM path: park, meet, compute, resume) per
//                          memcpy of the same 1 MiB; goal: ratio <= 2.
//   BM_AllReduceKernelVsMemcpy the same all-reduce's arithmetic alone, one thread.
//   BM_DataParallelScaling one data-parallel step (an f32 256^3 matmul, then an
//                          all-reduce of the result) with 2 replicas against 1,
//                          on 2 threads; throughput ratio = 2 t(R=1) / t(R=2),
//                          goal >= 1.8 on 2 cores; serial_overhead: 2 replicas on
//                          1 thread per twice 1 replica (the pool's own cost).
//   BM_TinyReplicasDefaultVsOneThread a tiny replicated program with the default
//                          thread count per --threads=1; goal <= 1.
// OPENBLAS_NUM_THREADS is pinned to 1 (one BLAS thread per running replica).
//
//   build/bench/replicas_bench
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_program.h"
#include "vm/kernels_collective.h"
#include "vm/session.h"

namespace {

using Clock = std::chrono::steady_clock;

// This thread's CPU seconds: unaffected by preemption on a shared machine.
double threadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A module built from text (no session commands) and its session.
using Program = pir::bench::BenchProgram;

constexpr int kAllReduces = 200;

std::string allReduceProgram(int replicas) {
  return "ir {replication = " + std::to_string(replicas) +
         "}\n"
         "graph @ar(%w: &f32[512,512]) -> () {\n"
         "  replicated_all_reduce_ %w {op = mean}\n"
         "  return\n}\n"
         "main {\n  var %w : f32[512,512] = uniform(-1, 1, 1)\n  repeat @ar(%w) {count = " +
         std::to_string(kAllReduces) + "}\n}\n";
}

void BM_AllReduceVsMemcpy(benchmark::State& state) {
  Program p(allReduceProgram(2), 2);
  if (!p.ok) return state.SkipWithError(p.err.str().c_str());
  std::vector<float> a(512 * 512, 1.0f), b(512 * 512);
  p.secondsPerRun();  // warm-up: compile, frames, page faults
  double allReduce = 0, copy = 0;
  for (auto _ : state) {
    allReduce += p.secondsPerRun() / kAllReduces;
    const auto t0 = Clock::now();
    for (int i = 0; i < kAllReduces; ++i) {
      std::memcpy(b.data(), a.data(), a.size() * sizeof(float));
      benchmark::DoNotOptimize(b.data());
      benchmark::ClobberMemory();
    }
    copy += std::chrono::duration<double>(Clock::now() - t0).count() / kAllReduces;
  }
  state.counters["all_reduce_us"] = 1e6 * allReduce / static_cast<double>(state.iterations());
  state.counters["memcpy_us"] = 1e6 * copy / static_cast<double>(state.iterations());
  state.counters["ratio"] = allReduce / copy;
}

// The collective kernel alone, on one thread (no pool, no hand-offs): an
// in-place f32[512,512] all-reduce of 2 members (reads 2 MiB, writes 2 MiB)
// per memcpy of one member's 1 MiB, interleaved, in thread CPU time.
void BM_AllReduceKernelVsMemcpy(benchmark::State& state) {
  const size_t n = 512 * 512;
  pir::TensorType t{pir::DType::F32, {512, 512}};
  std::vector<float> x0(n, 1.0f), x1(n, 2.0f), a(2 * n, 1.0f), b(2 * n);
  pir::vm::CollectiveSpec spec;
  spec.reduce = pir::vm::CollectiveSpec::Reduce::Mean;
  pir::vm::CollectiveJob job;
  job.spec = &spec;
  job.inType = &t;
  job.outType = &t;
  job.inputs = {reinterpret_cast<std::byte*>(x0.data()), reinterpret_cast<std::byte*>(x1.data())};
  job.outputs = {reinterpret_cast<std::byte*>(x0.data()), reinterpret_cast<std::byte*>(x1.data())};
  double reduce = 0, copy = 0, copyBoth = 0;
  for (auto _ : state) {
    const double t0 = threadSeconds();
    pir::vm::runCollective(job);
    benchmark::ClobberMemory();
    const double t1 = threadSeconds();
    std::memcpy(b.data(), a.data(), n * sizeof(float));
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
    const double t2 = threadSeconds();
    std::memcpy(b.data(), a.data(), 2 * n * sizeof(float));
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
    const double t3 = threadSeconds();
    reduce += t1 - t0;
    copy += t2 - t1;
    copyBoth += t3 - t2;
  }
  state.counters["all_reduce_us"] = 1e6 * reduce / static_cast<double>(state.iterations());
  state.counters["memcpy_us"] = 1e6 * copy / static_cast<double>(state.iterations());
  state.counters["ratio"] = reduce / copy;  // per memcpy of one member's tensor
  state.counters["ratio_both"] = reduce / copyBoth;  // per memcpy of both members' tensors
}

constexpr int kSteps = 40;

std::string dataParallelProgram(int replicas) {
  return "ir {replication = " + std::to_string(replicas) +
         "}\n"
         "graph @step(%a: f32[256,256], %b: f32[256,256]) -> () {\n"
         "  %c = matmul %a, %b\n"
         "  %s = replicated_all_reduce %c {op = mean}\n"
         "  return\n}\n"
         "main {\n  var %a : f32[256,256] = uniform(-1, 1, 1)\n  var %b : f32[256,256] = uniform(-1, 1, 2)\n"
         "  repeat @step(%a, %b) {count = " +
         std::to_string(kSteps) + "}\n}\n";
}

void BM_DataParallelScaling(benchmark::State& state) {
  Program one(dataParallelProgram(1), 2), two(dataParallelProgram(2), 2), serial(dataParallelProgram(2), 1);
  if (!one.ok || !two.ok || !serial.ok) return state.SkipWithError("build failed");
  one.secondsPerRun();
  two.secondsPerRun();
  serial.secondsPerRun();
  double t1 = 0, t2 = 0, ts = 0;
  for (auto _ : state) {  // alternate, so that load changes hit all alike
    t1 += one.secondsPerRun();
    t2 += two.secondsPerRun();
    ts += serial.secondsPerRun();
  }
  // 2 replicas on one thread against twice one replica: the cost of parking
  // and meeting (1 = none), which needs no second core to measure.
  state.counters["serial_overhead"] = ts / (2 * t1);
  state.counters["r1_ms"] = 1e3 * t1 / static_cast<double>(state.iterations());
  state.counters["r2_ms"] = 1e3 * t2 / static_cast<double>(state.iterations());
  state.counters["throughput_ratio"] = 2 * t1 / t2;
}

// A tiny replicated program (replicas of an f32[16] add, all-reduce and update, 500
// supersteps a run) with the default thread count (the machine's) against
// --threads=1, each a session built once and run alternately. Goal:
// default_vs_one <= 1 (the default is never slower; each superstep's few
// microseconds run on one thread rather than being handed to a helper).
// Arg: the replica count.
std::string tinyProgram(int replicas) {
  return "ir {replication = " + std::to_string(replicas) +
         "}\n"
         "graph @step(%a: &f32[16]) -> () {\n"
         "  %c = add %a, %a\n"
         "  replicated_all_reduce_ %c {op = add}\n"
         "  copy_var_update_ %a, %c\n"
         "  return\n}\n"
         "main {\n  var %a : f32[16] = uniform(-1, 1, 1)\n  repeat @step(%a) {count = 500}\n}\n";
}

void BM_TinyReplicasDefaultVsOneThread(benchmark::State& state) {
  const int replicas = static_cast<int>(state.range(0));
  Program byDefault(tinyProgram(replicas), 0), one(tinyProgram(replicas), 1);
  if (!byDefault.ok || !one.ok) return state.SkipWithError("build failed");
  byDefault.secondsPerRun();
  one.secondsPerRun();
  double td = 0, t1 = 0;
  bool defaultFirst = true;
  for (auto _ : state) {  // alternate the order too: neither always runs on the other's warm caches
    if (defaultFirst) td += byDefault.secondsPerRun();
    t1 += one.secondsPerRun();
    if (!defaultFirst) td += byDefault.secondsPerRun();
    defaultFirst = !defaultFirst;
  }
  state.counters["default_us"] = 1e6 * td / static_cast<double>(state.iterations());
  state.counters["one_thread_us"] = 1e6 * t1 / static_cast<double>(state.iterations());
  state.counters["default_vs_one"] = td / t1;
}

BENCHMARK(BM_AllReduceKernelVsMemcpy)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AllReduceVsMemcpy)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_DataParallelScaling)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_TinyReplicasDefaultVsOneThread)->Arg(2)->Arg(8)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  setenv("OPENBLAS_NUM_THREADS", "1", 1);  // before OpenBLAS loads
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
