// The MLP training step of ../shared/perf/mlp.pir (784-256-10, batch 64, SGD 0.1,
// backward pass by `autodiff`) run by pir, against the same step written directly
// in C++ over the same GEMM (vm/kernels.h gemmF32: OpenBLAS with pir's core-type
// choice) and plain loops: the ceiling for pir's own overhead. One run measures
// both, interleaved, in steps per second; `pir_vs_direct` is pir's throughput over
// the direct step's (1.0 = no overhead).
//
//   OPENBLAS_NUM_THREADS=1 ./mlp_bench --benchmark_filter='/1$'
//   ./mlp_bench   # threads 1 and 2 (the VM's thread budget, BLAS threads included)
//
// PyTorch eager is measured by ../shared/perf/mlp_peers.py and mlp_manual_check.py
// (whole processes), not here.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_program.h"
#include "frontend/builder.h"
#include "passes/autodiff.h"
#include "api/session_driver.h"
#include "vm/kernels.h"
#include "vm/npy.h"
#include "vm/replica_pool.h"
#include "vm/session.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBatch = 64, kIn = 784, kHidden = 256, kOut = 10, kSteps = 16;

// perf/mlp.pir with `run` left to the benchmark.
const char* kMlpProgram = R"(ir {num_host_transfers = 16}
h2d $x : f32[64,784]
h2d $y : i32[64]
d2h $loss : f32[]
graph @model(%x: f32[64,784], %W1: f32[784,256], %b1: f32[256], %W2: f32[256,10], %b2: f32[10], %y: i32[64]) -> (f32[]) {
  %h = matmul %x, %W1
  %hb = add %h, %b1
  %a = relu %hb
  %o = matmul %a, %W2
  %ob = add %o, %b2
  %p = softmax %ob {axis = 1}
  %l = nll_loss %p, %y
  return %l
}
autodiff @model -> @model_grad {grads_required = [%W1, %b1, %W2, %b2]}
graph @step(%W1: &f32[784,256], %b1: &f32[256], %W2: &f32[256,10], %b2: &f32[10]) -> () {
  %x = host_load $x
  %y = host_load $y
  %l = call @model(%x, %W1, %b1, %W2, %b2, %y) as fwd
  %dW1, %db1, %dW2, %db2 = call @model_grad(1.0) using fwd
  scaled_add_ %W1, %dW1 {b = -0.1}
  scaled_add_ %b1, %db1 {b = -0.1}
  scaled_add_ %W2, %dW2 {b = -0.1}
  scaled_add_ %b2, %db2 {b = -0.1}
  host_store $loss, %l
  return
}
var %W1 : f32[784,256] = load("w1.npy")
var %b1 : f32[256] = zeros
var %W2 : f32[256,10] = load("w2.npy")
var %b2 : f32[10] = zeros
repeat @step(%W1, %b1, %W2, %b2) {count = 16}
feed $x = load("x.npy")
feed $y = load("y.npy")
)";

struct Data {
  std::vector<float> x, w1, w2;  // x: 16 batches of [64,784]
  std::vector<int32_t> y;
  Data() : x(kSteps * kBatch * kIn), w1(kIn * kHidden), w2(kHidden * kOut), y(kSteps * kBatch) {
    std::mt19937 gen(0);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (float& v : x) v = normal(gen);
    for (float& v : w1) v = 0.05f * normal(gen);
    for (float& v : w2) v = 0.05f * normal(gen);
    for (int32_t& v : y) v = static_cast<int32_t>(gen() % kOut);
  }
};

// A temp directory holding the program's NPY inputs, removed at exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "pir-mlp-bench-XXXXXX").string();
    path = mkdtemp(t.data()) ? t : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// perf/mlp.pir over the data written to `dir` as NPY files.
struct PirMlp : pir::bench::BenchProgram {
  static const std::filesystem::path& written(const Data& d, const std::filesystem::path& dir) {
    using pir::DType;
    pir::vm::writeNpy((dir / "x.npy").string(), DType::F32, {kSteps, kBatch, kIn}, d.x.data());
    pir::vm::writeNpy((dir / "y.npy").string(), DType::I32, {kSteps, kBatch}, d.y.data());
    pir::vm::writeNpy((dir / "w1.npy").string(), DType::F32, {kIn, kHidden}, d.w1.data());
    pir::vm::writeNpy((dir / "w2.npy").string(), DType::F32, {kHidden, kOut}, d.w2.data());
    return dir;
  }
  PirMlp(const Data& d, const std::filesystem::path& dir, int threads)
      : BenchProgram(kMlpProgram, threads, written(d, dir).string()) {}
};

// The same 16 steps, written directly: GEMMs through gemmF32, the rest plain loops.
struct DirectMlp {
  const Data& d;
  std::vector<float> w1, b1, w2, b2, h, o, dO, dA, dW1, dW2;
  explicit DirectMlp(const Data& data)
      : d(data), w1(data.w1), b1(kHidden), w2(data.w2), b2(kOut), h(kBatch * kHidden), o(kBatch * kOut),
        dO(kBatch * kOut), dA(kBatch * kHidden), dW1(kIn * kHidden), dW2(kHidden * kOut) {}

  float step(int s) {
    using pir::vm::gemmF32;
    const float* x = d.x.data() + static_cast<size_t>(s) * kBatch * kIn;
    const int32_t* y = d.y.data() + static_cast<size_t>(s) * kBatch;
    gemmF32(x, w1.data(), h.data(), kBatch, kHidden, kIn);
    for (int i = 0; i < kBatch; ++i)
      for (int j = 0; j < kHidden; ++j) h[i * kHidden + j] = std::max(h[i * kHidden + j] + b1[j], 0.0f);
    gemmF32(h.data(), w2.data(), o.data(), kBatch, kOut, kHidden);
    float loss = 0;
    for (int i = 0; i < kBatch; ++i) {  // softmax, nll loss and its gradient (mean over the batch)
      float* row = &o[i * kOut];
      float mx = -INFINITY, sum = 0;
      for (int j = 0; j < kOut; ++j) mx = std::max(mx, row[j] += b2[j]);
      for (int j = 0; j < kOut; ++j) sum += row[j] = std::exp(row[j] - mx);
      for (int j = 0; j < kOut; ++j) dO[i * kOut + j] = row[j] / sum / kBatch;
      loss -= std::log(row[y[i]] / sum) / kBatch;
      dO[i * kOut + y[i]] -= 1.0f / kBatch;
    }
    gemmF32(h.data(), dO.data(), dW2.data(), kHidden, kOut, kBatch, /*transA=*/true);
    gemmF32(dO.data(), w2.data(), dA.data(), kBatch, kHidden, kOut, false, /*transB=*/true);
    for (int i = 0; i < kBatch * kHidden; ++i) dA[i] = h[i] > 0 ? dA[i] : 0.0f;  // relu'
    gemmF32(x, dA.data(), dW1.data(), kIn, kHidden, kBatch, /*transA=*/true);
    for (int j = 0; j < kOut; ++j) {
      float g = 0;
      for (int i = 0; i < kBatch; ++i) g += dO[i * kOut + j];
      b2[j] -= 0.1f * g;
    }
    for (int j = 0; j < kHidden; ++j) {
      float g = 0;
      for (int i = 0; i < kBatch; ++i) g += dA[i * kHidden + j];
      b1[j] -= 0.1f * g;
    }
    for (size_t i = 0; i < w1.size(); ++i) w1[i] -= 0.1f * dW1[i];
    for (size_t i = 0; i < w2.size(); ++i) w2[i] -= 0.1f * dW2[i];
    return loss;
  }
};

void BM_MlpStep(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  static const Data data;
  TempDir dir;
  if (dir.path.empty()) return state.SkipWithError("no temp directory");
  PirMlp pirMlp(data, dir.path, threads);
  if (!pirMlp.ok) return state.SkipWithError(pirMlp.err.str().c_str());
  DirectMlp direct(data);
  if (pirMlp.session->run(1).failed()) return state.SkipWithError(pirMlp.err.str().c_str());  // warm-up: compile, arenas, OpenBLAS load
  pir::vm::setBlasThreads(threads);
  for (int s = 0; s < kSteps; ++s) benchmark::DoNotOptimize(direct.step(s));
  double pirSeconds = 0, directSeconds = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    (void)pirMlp.session->run(1);  // 16 steps; an error is reported, and checked below
    auto t1 = Clock::now();
    pir::vm::setBlasThreads(threads);  // as the session sets it for its run
    for (int s = 0; s < kSteps; ++s) benchmark::DoNotOptimize(direct.step(s));
    auto t2 = Clock::now();
    pirSeconds += std::chrono::duration<double>(t1 - t0).count();
    directSeconds += std::chrono::duration<double>(t2 - t1).count();
  }
  if (pirMlp.diags.errorCount()) return state.SkipWithError(pirMlp.err.str().c_str());
  // Both trained the same number of steps from the same start: the weights agree
  // to float32 rounding, or the ceiling is not the same computation.
  pir::FailureOr<pir::vm::HostTensor> w1Read = pirMlp.session->valueOf("%W1", {});
  if (w1Read.failed()) return state.SkipWithError(pirMlp.err.str().c_str());
  const pir::vm::HostTensor& w1 = *w1Read;
  double worst = 0;
  for (size_t i = 0; i < direct.w1.size(); ++i)
    worst = std::max(worst, std::abs(w1.get(static_cast<int64_t>(i)) - direct.w1[i]));
  state.counters["max_abs_W1_diff"] = worst;
  if (worst > 1e-3) return state.SkipWithError("the direct step does not compute what mlp.pir does");
  const double steps = static_cast<double>(state.iterations()) * kSteps;
  state.counters["pir_steps_per_s"] = steps / pirSeconds;
  state.counters["direct_steps_per_s"] = steps / directSeconds;
  state.counters["pir_vs_direct"] = directSeconds / pirSeconds;
  state.SetLabel(pir::vm::gemmBackendName());
}
BENCHMARK(BM_MlpStep)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
