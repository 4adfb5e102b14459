// What a second kernel thread buys, as ratios within one run (time on 1 thread
// per time on 2; above 1, the split pays). Each benchmark alternates the two
// thread counts call by call, so load that comes and goes hits both alike; on
// a machine whose second core is busy the ratios say so (about 1 or below).
//
//   BM_SplitElementwise/N  an elementwise add of N f32 elements through the
//                          kernel (prepareKernel, as the VM runs it): at or
//                          above 2 x kMinElementsPerThread (vm/kernel_util.h)
//                          it splits, below it the two runs are the same code.
//   BM_SplitLoop/N         the same add written as a plain loop through
//                          simd::parallelFor with no size threshold: where a
//                          split starts to pay on this machine (the figure
//                          kMinElementsPerThread should follow).
//   BM_SplitGemm/M/N/K     the f32 matmul kernel on the MLP's and the
//                          transformer's shapes and 256^3, 1024^3.
//   BM_CrossCoreRoundTrip  not a ratio: the time for a cache line to go to the
//                          other thread's core and back (two threads passing a
//                          counter), what every split and every line one core
//                          writes and the other reads costs. On a virtual
//                          machine it depends on where the host runs the two
//                          vCPUs, and may change from minute to minute
//                          (docs/performance.md "Bimodal 2-thread runs").
//
//   build/bench/threads_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace {

using pir::DType;
using pir::TensorType;
using namespace pir::vm;
using Clock = std::chrono::steady_clock;

// Runs `call` alternately on 1 and 2 kernel threads; reports the ratio.
template <class Call> void alternate(benchmark::State& state, Call&& call) {
  const int before = simd::kernelThreads();
  double t1 = 0, t2 = 0;
  for (auto _ : state) {
    for (int threads : {1, 2}) {
      simd::setKernelThreads(threads);
      const auto t0 = Clock::now();
      call();
      (threads == 1 ? t1 : t2) += std::chrono::duration<double>(Clock::now() - t0).count();
    }
  }
  simd::setKernelThreads(before);
  const double n = static_cast<double>(state.iterations());
  state.counters["one_thread_us"] = 1e6 * t1 / n;
  state.counters["two_threads_us"] = 1e6 * t2 / n;
  state.counters["speedup"] = t1 / t2;
}

struct Kernel {
  std::vector<TensorType> ins, outs;
  std::vector<std::vector<float>> data;
  std::vector<TensorRef> in, out;
  PreparedKernel k;
  KernelContext ctx;
  Kernel(pir::OpCode code, std::vector<TensorType> insT, TensorType outT) : ins(std::move(insT)), outs{std::move(outT)} {
    pir::Op op;
    op.code = code;
    k = prepareKernel(op, ins, outs);
    for (const TensorType& t : ins) {
      data.emplace_back(static_cast<size_t>(t.numElements()));
      for (size_t i = 0; i < data.back().size(); ++i) data.back()[i] = static_cast<float>(std::sin(0.001 * static_cast<double>(i)));
    }
    data.emplace_back(static_cast<size_t>(outs[0].numElements()));
    for (size_t i = 0; i < ins.size(); ++i) in.push_back({data[i].data(), &ins[i]});
    out.push_back({data.back().data(), &outs[0]});
  }
  void operator()() {
    k(in.data(), out.data(), ctx);
    benchmark::DoNotOptimize(data.back().data());
  }
};

void BM_SplitElementwise(benchmark::State& state) {
  const TensorType t{DType::F32, {state.range(0)}};
  Kernel add(pir::OpCode::Add, {t, t}, t);
  alternate(state, add);
}

void BM_SplitLoop(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(static_cast<size_t>(n), 1.0f), b(static_cast<size_t>(n), 2.0f), c(static_cast<size_t>(n));
  alternate(state, [&] {
    simd::parallelFor(n, 64, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
    });
    benchmark::DoNotOptimize(c.data());
  });
}

void BM_SplitGemm(benchmark::State& state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  Kernel matmul(pir::OpCode::MatMul, {TensorType{DType::F32, {m, k}}, TensorType{DType::F32, {k, n}}},
                TensorType{DType::F32, {m, n}});
  alternate(state, matmul);
  state.SetLabel(gemmBackendName());
}

void BM_CrossCoreRoundTrip(benchmark::State& state) {
  constexpr int64_t kTrips = 100000;
  alignas(64) std::atomic<int64_t> ball{0};
  std::atomic<bool> stop{false};
  std::thread partner([&] {  // answers each odd value with the next even one
    int64_t seen = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      const int64_t v = ball.load(std::memory_order_acquire);
      if (v != seen && (v & 1)) {
        ball.store(v + 1, std::memory_order_release);
        seen = v + 1;
      }
    }
  });
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < kTrips; ++i) {
      const int64_t sent = ball.load(std::memory_order_relaxed) + 1;
      ball.store(sent, std::memory_order_release);
      while (ball.load(std::memory_order_acquire) != sent + 1) {
      }
    }
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  stop = true;
  partner.join();
  state.counters["round_trip_ns"] = 1e9 * seconds / (static_cast<double>(state.iterations()) * kTrips);
}

}  // namespace

BENCHMARK(BM_SplitElementwise)->RangeMultiplier(2)->Range(16 << 10, 1 << 20)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SplitLoop)->RangeMultiplier(2)->Range(4 << 10, 1 << 20)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SplitGemm)
    ->Args({64, 256, 784})   // the MLP's forward product
    ->Args({784, 256, 64})   // its weight gradient's shape (stored untransposed here)
    ->Args({512, 128, 128})  // the transformer's projections
    ->Args({512, 512, 128})  // its FFN
    ->Args({256, 256, 256})
    ->Args({1024, 1024, 1024})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CrossCoreRoundTrip)->Iterations(2)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
