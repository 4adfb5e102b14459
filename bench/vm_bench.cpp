// VM dispatch overhead: a chain of 10 000 `add`s on f32[16] run through the
// bytecode interpreter, against the same adds done directly with Eigen in the
// same run. Reported per op; the goal is at most 10 ns of VM overhead per op.
//
//   build/bench/vm_bench   (counters: ns_per_op; the VM run also reports
//   overhead_ns_per_op and ratio against the Eigen reference measured first)
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <chrono>
#include <ctime>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/builder.h"
#include "vm/interpreter.h"
#include "vm/session.h"

namespace {

constexpr int kChain = 10000;
constexpr int kWidth = 16;
std::string chainProgram() {
  std::string text = "main {\n  const %one : f32[16] = 1\n  const %v0 : f32[16] = 0\n";
  for (int i = 1; i <= kChain; ++i)
    text += "  %v" + std::to_string(i) + " = add %v" + std::to_string(i - 1) + ", %one\n";
  text += "}\n";
  return text;
}

// The add chain compiled once, with replica 0's device state and an
// interpreter over it: only runMain() is inside the timed loops.
struct CompiledChain {
  pir::SourceManager sm;
  pir::DiagnosticEngine diags{sm};
  pir::Module m;
  std::ostringstream out;
  pir::vm::Session session{m, diags, out};
  pir::vm::DeviceState device;
  std::unique_ptr<pir::vm::Interpreter> interp;

  // False (and the benchmark skipped) if the program does not build.
  bool build(benchmark::State& state) {
    uint32_t file = sm.add("chain.pir", chainProgram());
    if (!pir::buildFromBuffer(m, diags, file, ".")) {
      state.SkipWithError("build failed");
      return false;
    }
    pir::FailureOr<const pir::vm::Program*> compiled = session.program();
    if (compiled.failed()) {
      state.SkipWithError("compile failed");
      return false;
    }
    const pir::vm::Program& program = **compiled;
    device.vars.resize(1);
    device.remote.resize(1);
    device.mainValues.emplace_back(program.main->arenaBytes);
    interp = std::make_unique<pir::vm::Interpreter>(m, program, device, 0, nullptr, &sm);
    return true;
  }
};

void BM_EigenAddChain(benchmark::State& state) {
  // The same memory traffic as the VM's main graph: every result has its own buffer.
  std::vector<Eigen::ArrayXf> values(kChain + 1, Eigen::ArrayXf::Zero(kWidth));
  const Eigen::ArrayXf one = Eigen::ArrayXf::Ones(kWidth);
  for (auto _ : state) {
    for (int i = 1; i <= kChain; ++i) values[i] = values[i - 1] + one;
    benchmark::DoNotOptimize(values[kChain].data());
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

void BM_VmAddChain(benchmark::State& state) {
  using namespace pir;
  CompiledChain chain;
  if (!chain.build(state)) return;
  vm::Interpreter& interp = *chain.interp;
  for (auto _ : state) {
    interp.runMain();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

// This thread's CPU time: on a shared machine the other processes' share of the core
// stays out of the comparison (wall time counts it for whichever side it hits).
struct ThreadCpuClock {
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<ThreadCpuClock, duration>;
  static time_point now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return time_point(duration(static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec));
  }
};

// Measures both in one run, in this thread's CPU time, and reports the VM's
// overhead over Eigen per op.
void BM_VmOverheadVsEigen(benchmark::State& state) {
  using namespace pir;
  using Clock = ThreadCpuClock;
  CompiledChain chain;
  if (!chain.build(state)) return;
  vm::Interpreter& interp = *chain.interp;
  std::vector<Eigen::ArrayXf> values(kChain + 1, Eigen::ArrayXf::Zero(kWidth));
  const Eigen::ArrayXf one = Eigen::ArrayXf::Ones(kWidth);

  double vmNs = 0, eigenNs = 0;
  int64_t rounds = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    interp.runMain();
    auto t1 = Clock::now();
    for (int i = 1; i <= kChain; ++i) values[i] = values[i - 1] + one;
    benchmark::DoNotOptimize(values[kChain].data());
    auto t2 = Clock::now();
    vmNs += std::chrono::duration<double, std::nano>(t1 - t0).count();
    eigenNs += std::chrono::duration<double, std::nano>(t2 - t1).count();
    ++rounds;
  }
  if (rounds == 0) return;
  const double perOpVm = vmNs / rounds / kChain, perOpEigen = eigenNs / rounds / kChain;
  state.counters["vm_ns_per_op"] = perOpVm;
  state.counters["eigen_ns_per_op"] = perOpEigen;
  state.counters["overhead_ns_per_op"] = perOpVm - perOpEigen;
  state.counters["ratio_vm_over_eigen"] = perOpVm / perOpEigen;
}

}  // namespace

BENCHMARK(BM_EigenAddChain);
BENCHMARK(BM_VmAddChain);
BENCHMARK(BM_VmOverheadVsEigen);
BENCHMARK_MAIN();
