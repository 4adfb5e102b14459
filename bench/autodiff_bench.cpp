// Autodiff speed: differentiating a generated forward graph
// of 100,000 ops must take under 0.5 s and grow linearly. Reported next to the
// parse + verify of the same forward program (the reference, same run), and at
// 25,000 ops to show the growth.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "frontend/builder.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "passes/autodiff.h"
#include "repl/allocator.h"

namespace {

// @f chains through a mix of binary (with a parameter), unary and reduction-free
// ops, so most intermediates are activations of the gradient.
std::string generateForward(int numOps) {
  std::string s;
  s.reserve(static_cast<size_t>(numOps) * 40);
  s += "graph @f(%x: f32[4], %w: f32[4]) {\n  %v0 = mul %x, %w\n";
  static const char* kOps[] = {"mul %v{} , %w", "add %v{} , %x", "tanh %v{}", "sub %v{} , %w", "sigmoid %v{}"};
  for (int i = 1; i < numOps; ++i) {
    std::string op = kOps[i % 5];
    op.replace(op.find("{}"), 2, std::to_string(i - 1));
    s += "  %v" + std::to_string(i) + " = " + op + "\n";
  }
  s += "  return %v" + std::to_string(numOps - 1) + "\n}\n";
  return s;
}

struct Parsed {
  std::unique_ptr<pir::SourceManager> sources = std::make_unique<pir::SourceManager>();
  std::unique_ptr<pir::DiagnosticEngine> diags;
  std::unique_ptr<pir::Module> module = std::make_unique<pir::Module>();
  bool ok = false;
};

Parsed parse(const std::string& text) {
  Parsed p;
  uint32_t file = p.sources->add("bench.pir", text);
  p.diags = std::make_unique<pir::DiagnosticEngine>(*p.sources);
  p.ok = pir::buildFromBuffer(*p.module, *p.diags, file, ".").succeeded();
  return p;
}

void BM_ParseVerifyForward(benchmark::State& state) {
  const std::string text = generateForward(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    Parsed p = parse(text);
    if (!p.ok) state.SkipWithError("forward graph did not verify");
    benchmark::DoNotOptimize(p.module.get());
    state.PauseTiming();
    p = Parsed{};
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ParseVerifyForward)->Arg(25'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_Autodiff(benchmark::State& state) {
  const std::string text = generateForward(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    Parsed p = parse(text);
    if (!p.ok) state.SkipWithError("forward graph did not verify");
    pir::Graph* fwd = p.module->findGraph("f");
    state.ResumeTiming();
    if (!pir::autodiff(*p.module, *fwd, "f_grad", {}, {}, *p.diags)) state.SkipWithError("autodiff failed");
    state.PauseTiming();
    p = Parsed{};
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Autodiff)->Arg(25'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

int main(int argc, char** argv) {
  pir::configureAllocator();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
