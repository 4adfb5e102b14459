// f32 GEMM: the matmul kernel (through prepareKernel, as the VM runs it) against
// OpenBLAS's cblas_sgemm, oneDNN's dnnl_sgemm and Eigen's GEMM (as compiled in this
// build), all in one run, all with OPENBLAS_NUM_THREADS threads (default 1). Reports GFLOP/s (the `GFLOP` rate counter) and, for the kernel, the ratio to the best reference
// measured in the same run (`vs_best`, 1.0 = as fast as the best). Also times
// one small elementwise kernel call (add on f32[16]), the VM's per-op floor.
//
//   ./matmul_bench --benchmark_min_time=2
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "vm/kernels.h"
#include "vm/simd_kernels.h"

namespace {

using pir::DType;
using pir::TensorType;
using namespace pir::vm;

// Best seconds per GEMM of each reference, by size, filled by the reference
// benchmarks (registered, so run, before the kernel's).
std::map<int64_t, double>& bestReference() {
  static std::map<int64_t, double> best;
  return best;
}

void noteReference(int64_t n, double secondsPerIter) {
  auto [it, inserted] = bestReference().emplace(n, secondsPerIter);
  if (!inserted) it->second = std::min(it->second, secondsPerIter);
}

struct Matrices {
  std::vector<float> a, b, c;
  explicit Matrices(int64_t n) : a(n * n), b(n * n), c(n * n) {
    for (int64_t i = 0; i < n * n; ++i) {
      a[i] = static_cast<float>(std::sin(0.001 * static_cast<double>(i)));
      b[i] = static_cast<float>(std::cos(0.002 * static_cast<double>(i)));
    }
  }
};

void setFlops(benchmark::State& state, int64_t n) {
  state.counters["GFLOP"] = benchmark::Counter(2e-9 * static_cast<double>(n * n * n),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// Time per iteration, measured around the loop (the framework's own figure is
// not visible to the benchmark body).
template <class F> double timeLoop(benchmark::State& state, F&& body) {
  const auto t0 = std::chrono::steady_clock::now();
  int64_t iters = 0;
  for (auto _ : state) {
    body();
    ++iters;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return iters ? s / static_cast<double>(iters) : 0;
}

// Threads for every GEMM measured here: OPENBLAS_NUM_THREADS (which OpenBLAS reads
// itself), default 1; given to oneDNN's OpenMP and to pir's kernel threads too.
int benchThreads() {
  const char* s = std::getenv("OPENBLAS_NUM_THREADS");
  return s && std::atoi(s) > 0 ? std::atoi(s) : 1;
}

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
SgemmFn openBlasSgemm() {
  static SgemmFn fn = [] {
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) return SgemmFn{};
    // Without OPENBLAS_NUM_THREADS OpenBLAS starts one thread per core: it is given
    // benchThreads() as oneDNN and pir are.
    if (auto setThreads = reinterpret_cast<void (*)(int)>(dlsym(lib, "openblas_set_num_threads")))
      setThreads(benchThreads());
    return reinterpret_cast<SgemmFn>(dlsym(lib, "cblas_sgemm"));
  }();
  return fn;
}

void BM_OpenBlasSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  SgemmFn sgemm = openBlasSgemm();
  if (!sgemm) {
    state.SkipWithError("libopenblas not found");
    return;
  }
  Matrices m(n);
  const int ni = static_cast<int>(n);
  constexpr int kRowMajor = 101, kNoTrans = 111;  // CBLAS enum values
  noteReference(n, timeLoop(state, [&] {
    sgemm(kRowMajor, kNoTrans, kNoTrans, ni, ni, ni, 1.0f, m.a.data(), ni, m.b.data(), ni, 0.0f, m.c.data(), ni);
    benchmark::DoNotOptimize(m.c.data());
  }));
  setFlops(state, n);
}

// oneDNN's row-major sgemm, the library pir's kernel calls for f32 (docs/decisions.md
// "GEMM backends"), with benchThreads() OpenMP threads.
using DnnlSgemmFn = int (*)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t,
                            float, float*, int64_t);
DnnlSgemmFn oneDnnSgemm() {
  static DnnlSgemmFn fn = [] {
    void* lib = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return DnnlSgemmFn{};
    if (auto setThreads = reinterpret_cast<void (*)(int)>(dlsym(lib, "omp_set_num_threads"))) setThreads(benchThreads());
    return reinterpret_cast<DnnlSgemmFn>(dlsym(lib, "dnnl_sgemm"));
  }();
  return fn;
}

void BM_OneDnnSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  DnnlSgemmFn sgemm = oneDnnSgemm();
  if (!sgemm) return state.SkipWithError("libdnnl not found");
  Matrices m(n);
  noteReference(n, timeLoop(state, [&] {
    sgemm('N', 'N', n, n, n, 1.0f, m.a.data(), n, m.b.data(), n, 0.0f, m.c.data(), n);
    benchmark::DoNotOptimize(m.c.data());
  }));
  setFlops(state, n);
}

// The two ways to compute a conv_grad_weight block's dW (vm/kernels_conv_gemm.cpp),
// for the small CNN's second conv (og = 16, K = 72, four images of 196 positions:
// L = 784), alternating call by call: [og, K] = grad · colᵀ against the kernel's
// [K, og] = col · gradᵀ. long_side_rows_speedup is the first's time over the second's.
void BM_OneDnnConvGradWeightShapes(benchmark::State& state) {
  DnnlSgemmFn sgemm = oneDnnSgemm();
  if (!sgemm) return state.SkipWithError("libdnnl not found");
  const int64_t og = 16, K = 72, L = 784;
  std::vector<float> grad(og * L, 0.5f), col(K * L, 0.25f), c(og * K);
  using Clock = std::chrono::steady_clock;
  double shortRows = 0, longRows = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    sgemm('N', 'T', og, K, L, 1.0f, grad.data(), L, col.data(), L, 0.0f, c.data(), K);
    auto t1 = Clock::now();
    sgemm('N', 'T', K, og, L, 1.0f, col.data(), L, grad.data(), L, 0.0f, c.data(), og);
    auto t2 = Clock::now();
    shortRows += std::chrono::duration<double>(t1 - t0).count();
    longRows += std::chrono::duration<double>(t2 - t1).count();
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["short_side_rows_us"] = 1e6 * shortRows / static_cast<double>(state.iterations());
  state.counters["long_side_rows_us"] = 1e6 * longRows / static_cast<double>(state.iterations());
  state.counters["long_side_rows_speedup"] = shortRows / longRows;
}

void BM_EigenGemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  Matrices m(n);
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const M> a(m.a.data(), n, n), b(m.b.data(), n, n);
  Eigen::Map<M> c(m.c.data(), n, n);
  noteReference(n, timeLoop(state, [&] {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(m.c.data());
  }));
  setFlops(state, n);
}

// pir's f32 matmul kernel on m's n x n matrices (c = a b), prepared once.
class PirSquareMatMul {
 public:
  PirSquareMatMul(Matrices& m, int64_t n) : t_{DType::F32, {n, n}} {
    pir::Op op;
    op.code = pir::OpCode::MatMul;
    const TensorType ins[2] = {t_, t_};
    kernel_ = prepareKernel(op, ins, std::span<const TensorType>(&t_, 1));
    pir::vm::simd::setKernelThreads(benchThreads());
    in_[0] = {m.a.data(), &t_};
    in_[1] = {m.b.data(), &t_};
    out_[0] = {m.c.data(), &t_};
  }
  void operator()() { kernel_(in_, out_, ctx_); }

 private:
  TensorType t_;
  PreparedKernel kernel_;
  TensorRef in_[2];
  TensorRef out_[1];
  KernelContext ctx_;
};

void BM_PirMatMulKernel(benchmark::State& state) {
  const int64_t n = state.range(0);
  Matrices m(n);
  PirSquareMatMul k(m, n);
  const double s = timeLoop(state, [&] {
    k();
    benchmark::DoNotOptimize(m.c.data());
  });
  setFlops(state, n);
  if (auto it = bestReference().find(n); it != bestReference().end() && s > 0) state.counters["vs_best"] = it->second / s;
  state.SetLabel(gemmBackendName());
}

// The kernel and both libraries called in turn, one call each per iteration,
// each timed on its own: load that comes and goes on a shared machine hits all
// three alike. vs_openblas / vs_onednn: the library's time per pir's (1.0 = as
// fast; above 1, pir is faster); vs_best against the faster of the two; the
// *_cpu ratios in process CPU time, which preemption does not inflate (the
// figure to read at one thread on a loaded machine). At 2 threads each side's
// helpers spin a while after its call and take the core the next call needs, so
// 2-thread figures come from the separate benchmarks above.
void BM_PirVsLibrariesAlternating(benchmark::State& state) {
  const int64_t n = state.range(0);
  SgemmFn blas = openBlasSgemm();
  DnnlSgemmFn dnnl = oneDnnSgemm();
  if (!blas || !dnnl) return state.SkipWithError("libopenblas or libdnnl not found");
  Matrices m(n);
  PirSquareMatMul k(m, n);
  const int ni = static_cast<int>(n);
  using Clock = std::chrono::steady_clock;
  auto cpuNow = [] {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  struct Total {
    double wall = 0, cpu = 0;
  };
  auto time = [&](Total& t, auto&& f) {
    const auto t0 = Clock::now();
    const double c0 = cpuNow();
    f();
    t.cpu += cpuNow() - c0;
    t.wall += std::chrono::duration<double>(Clock::now() - t0).count();
  };
  Total pirT, blasT, dnnlT;
  for (auto _ : state) {
    time(pirT, [&] { k(); });
    time(blasT, [&] { blas(101, 111, 111, ni, ni, ni, 1.0f, m.a.data(), ni, m.b.data(), ni, 0.0f, m.c.data(), ni); });
    time(dnnlT, [&] { dnnl('N', 'N', n, n, n, 1.0f, m.a.data(), n, m.b.data(), n, 0.0f, m.c.data(), n); });
    benchmark::DoNotOptimize(m.c.data());
  }
  const double tPir = pirT.wall;
  state.counters["vs_openblas"] = blasT.wall / tPir;
  state.counters["vs_onednn"] = dnnlT.wall / tPir;
  state.counters["vs_best"] = std::min(blasT.wall, dnnlT.wall) / tPir;
  state.counters["vs_openblas_cpu"] = blasT.cpu / pirT.cpu;
  state.counters["vs_onednn_cpu"] = dnnlT.cpu / pirT.cpu;
  state.counters["pir_GFLOPs"] = 2e-9 * static_cast<double>(n * n * n) * static_cast<double>(state.iterations()) / tPir;
}

// Attention's per-head products (32 heads; the transformer of bench/peers): pir's
// batched matmul kernel, which runs them through the SIMD table's small GEMM
// (docs/decisions.md "GEMM backends"), against one oneDNN sgemm call per head with the
// operands' transpose flags, alternating call by call. vs_onednn: oneDNN's time per
// pir's (above 1, pir is faster).
struct HeadShape {
  int64_t m, n, k;
  bool transA, transB;
};
constexpr HeadShape kHeadShapes[] = {{64, 64, 32, false, false}, {64, 32, 64, false, false}, {64, 64, 32, false, true},
                                     {64, 32, 64, true, false},  {64, 32, 64, false, true},  {32, 64, 64, true, false}};

void BM_AttentionHeadProducts(benchmark::State& state) {
  const HeadShape h = kHeadShapes[state.range(0)];
  DnnlSgemmFn dnnl = oneDnnSgemm();
  if (!dnnl) return state.SkipWithError("libdnnl not found");
  constexpr int64_t kHeads = 32;
  pir::vm::simd::setKernelThreads(benchThreads());
  using pir::TensorType;
  const TensorType at{pir::DType::F32, h.transA ? pir::Shape{kHeads, h.k, h.m} : pir::Shape{kHeads, h.m, h.k}};
  const TensorType bt{pir::DType::F32, h.transB ? pir::Shape{kHeads, h.n, h.k} : pir::Shape{kHeads, h.k, h.n}};
  const TensorType ct{pir::DType::F32, {kHeads, h.m, h.n}};
  std::vector<float> a(static_cast<size_t>(at.numElements()), 0.5f), b(static_cast<size_t>(bt.numElements()), 0.25f),
      c(static_cast<size_t>(ct.numElements()));
  pir::vm::PreparedKernel kernel = pir::vm::prepareMatMulTransposed(at, h.transA, bt, h.transB, ct);
  pir::vm::TensorRef ins[2] = {{a.data(), &at}, {b.data(), &bt}};
  pir::vm::TensorRef outs[1] = {{c.data(), &ct}};
  pir::vm::KernelContext ctx;
  using Clock = std::chrono::steady_clock;
  double pirT = 0, dnnlT = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    kernel(ins, outs, ctx);
    auto t1 = Clock::now();
    for (int64_t i = 0; i < kHeads; ++i)
      dnnl(h.transA ? 'T' : 'N', h.transB ? 'T' : 'N', h.m, h.n, h.k, 1.0f, a.data() + i * h.m * h.k,
           h.transA ? h.m : h.k, b.data() + i * h.k * h.n, h.transB ? h.k : h.n, 0.0f, c.data() + i * h.m * h.n, h.n);
    auto t2 = Clock::now();
    pirT += std::chrono::duration<double>(t1 - t0).count();
    dnnlT += std::chrono::duration<double>(t2 - t1).count();
    benchmark::DoNotOptimize(c.data());
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["pir_us"] = 1e6 * pirT / iters;
  state.counters["onednn_us"] = 1e6 * dnnlT / iters;
  state.counters["vs_onednn"] = dnnlT / pirT;
  state.SetLabel(std::to_string(h.m) + "x" + std::to_string(h.n) + "x" + std::to_string(h.k) +
                 (h.transA ? " A transposed" : "") + (h.transB ? " B transposed" : ""));
}

void BM_AddF32x16Kernel(benchmark::State& state) {
  std::vector<float> a(16, 1.0f), b(16, 2.0f), c(16);
  pir::Op op;
  op.code = pir::OpCode::Add;
  const TensorType t{DType::F32, {16}};
  const TensorType ins[2] = {t, t};
  PreparedKernel k = prepareKernel(op, ins, std::span<const TensorType>(&t, 1));
  TensorRef in[2] = {{a.data(), &t}, {b.data(), &t}};
  TensorRef out[1] = {{c.data(), &t}};
  KernelContext ctx;
  for (auto _ : state) {
    k(in, out, ctx);
    benchmark::DoNotOptimize(c.data());
  }
}

}  // namespace

BENCHMARK(BM_OpenBlasSgemm)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OneDnnSgemm)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OneDnnConvGradWeightShapes);
BENCHMARK(BM_EigenGemm)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PirMatMulKernel)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PirVsLibrariesAlternating)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AttentionHeadProducts)->DenseRange(0, 5);
BENCHMARK(BM_AddF32x16Kernel);

// OpenBLAS runs its native kernels here, as NumPy's does on this machine: an
// OPENBLAS_CORETYPE or OPENBLAS_L2_SIZE in the environment (which would hold it to
// other kernels) is removed before it loads. The kernel it chose is printed.
int main(int argc, char** argv) {
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("OPENBLAS_L2_SIZE");
  if (openBlasSgemm()) {
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) lib = dlopen("libopenblas.so", RTLD_NOW | RTLD_NOLOAD);
    if (auto corename = lib ? reinterpret_cast<const char* (*)()>(dlsym(lib, "openblas_get_corename")) : nullptr)
      benchmark::AddCustomContext("openblas_core", corename());
  }
  benchmark::AddCustomContext("threads", std::to_string(benchThreads()));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
