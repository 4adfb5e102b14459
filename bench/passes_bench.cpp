// Pass throughput on a generated program of about 35,000 ops where every pass has
// work proportional to it (dead ops, a foldable chain, a long sum, calls, and kN
// graphs each updating a weight by a product, called from main),
// next to parse + verify of the same text as the reference measured in the same
// run: each pass should cost about as much as reading the program, never a
// multiple that grows with its size (the passes are O(n) or O(n log n) per graph).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "frontend/builder.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "passes/pass_manager.h"
#include "vm/const_eval.h"

namespace {

constexpr int kN = 5000;  // per kind of work: about 7 * kN ops in all

std::string generateProgram() {
  std::string s = "graph @inc(%t: f32[4]) -> (f32[4]) {\n  %u = add %t, 1\n  return %u\n}\n";
  s += "graph @work(%a: f32[4]) -> (f32[4]) {\n";
  for (int i = 0; i < kN; ++i) s += "  %dead" + std::to_string(i) + " = exp %a\n";
  for (int i = 0; i < kN; ++i) s += "  %p" + std::to_string(i) + " = neg %a\n";
  s += "  %s1 = add %p0, %p1\n";
  for (int i = 2; i < kN; ++i) s += "  %s" + std::to_string(i) + " = add %s" + std::to_string(i - 1) + ", %p" + std::to_string(i) + "\n";
  s += "  return %s" + std::to_string(kN - 1) + "\n}\n";
  for (int i = 0; i < kN; ++i)
    s += "graph @sgd" + std::to_string(i) +
         "(%v: &f32[4,4], %q: f32[4,4]) -> () {\n  %p = matmul %q, %q\n  scaled_add_ %v, %p {b = -0.5}\n  return\n}\n";
  s += "h2d $x : f32[4]\nd2h $y : f32[4]\nconst %c0 : f32[4] = 1\n";
  s += "var %v : f32[4,4] = 1\nconst %q : f32[4,4] = 1\n";
  for (int i = 0; i < kN; ++i) s += "call @sgd" + std::to_string(i) + "(%v, %q)\n";
  for (int i = 1; i < kN; ++i) s += "%c" + std::to_string(i) + " = add %c" + std::to_string(i - 1) + ", 1\n";
  s += "%x0 = host_load $x\n";
  for (int i = 1; i < kN; ++i) s += "%x" + std::to_string(i) + " = call @inc(%x" + std::to_string(i - 1) + ")\n";
  s += "%w = call @work(%x" + std::to_string(kN - 1) + ")\nhost_store $y, %w\n";
  return s;
}

struct Fixture {
  std::unique_ptr<pir::SourceManager> sources = std::make_unique<pir::SourceManager>();
  std::unique_ptr<pir::DiagnosticEngine> diags = std::make_unique<pir::DiagnosticEngine>(*sources);
  std::unique_ptr<pir::Module> module = std::make_unique<pir::Module>();
  bool build() {
    static const std::string text = generateProgram();
    return pir::buildFromBuffer(*module, *diags, sources->add("bench.pir", text), ".").succeeded();
  }
};

void BM_ParseVerify(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    Fixture f;
    state.ResumeTiming();
    if (!f.build()) state.SkipWithError("program did not verify");
    state.PauseTiming();
    f.module.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_ParseVerify)->Unit(benchmark::kMillisecond);

void BM_Pass(benchmark::State& state, const char* name) {
  static const pir::vm::KernelEvaluator evaluator;
  const pir::passes::PassInfo* pass = pir::passes::findPass(name);
  const pir::passes::PassInfo* pipeline[] = {pass};
  pir::passes::PipelineOptions options;
  options.evaluator = &evaluator;
  for (auto _ : state) {
    state.PauseTiming();
    Fixture f;
    if (!f.build()) state.SkipWithError("program did not verify");
    state.ResumeTiming();
    if (!pir::passes::runPipeline(*f.module, pipeline, *f.diags, options)) state.SkipWithError("pass failed");
    state.PauseTiming();
    f.module.reset();
    state.ResumeTiming();
  }
}
BENCHMARK_CAPTURE(BM_Pass, dce, "dce")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pass, inline, "inline")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pass, fold_constants, "fold-constants")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pass, decompose_sum, "decompose-sum")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pass, fuse_matmul_updates, "fuse-matmul-updates")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
