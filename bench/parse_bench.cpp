// Front-end throughput: parse + verify (and print) of a generated program of
// one million op statements (issue goal: >= 1M ops/s for parse + verify).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "frontend/builder.h"
#include "ir/printer.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "repl/allocator.h"

namespace {

// A main graph whose statements chain through a mix of common op shapes.
std::string generateProgram(int numOps) {
  std::string s;
  s.reserve(static_cast<size_t>(numOps) * 40);
  s += "h2d $x : f32[4]\nd2h $y : f32[4]\nmain {\n  const %c : f32[4] = [1, 2, 3, 4]\n  %v0 = host_load $x\n";
  static const char* kOps[] = {"add", "mul", "sub", "maximum"};
  for (int i = 1; i < numOps; ++i) {
    s += "  %v";
    s += std::to_string(i);
    s += " = ";
    s += kOps[i % 4];
    s += " %v";
    s += std::to_string(i - 1);
    s += ", %c\n";
  }
  s += "  host_store $y, %v";
  s += std::to_string(numOps - 1);
  s += "\n}\n";
  return s;
}

const std::string& program() {
  static const std::string text = generateProgram(1'000'000);
  return text;
}

// Parse + verify only: the source copy before and the module's teardown after
// are outside the timed region.
void BM_ParseVerify(benchmark::State& state) {
  const std::string& text = program();
  for (auto _ : state) {
    state.PauseTiming();
    auto sources = std::make_unique<pir::SourceManager>();
    uint32_t file = sources->add("bench.pir", text);
    auto diags = std::make_unique<pir::DiagnosticEngine>(*sources);
    auto module = std::make_unique<pir::Module>();
    state.ResumeTiming();
    if (!pir::buildFromBuffer(*module, *diags, file, ".")) state.SkipWithError("program did not verify");
    benchmark::DoNotOptimize(module->main->ops.size());
    state.PauseTiming();
    module.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_ParseVerify)->Unit(benchmark::kMillisecond)->Iterations(8);

// The whole cycle a `pir opt` of the file does: parse, verify, print, tear down.
void BM_ParseVerifyPrint(benchmark::State& state) {
  const std::string& text = program();
  for (auto _ : state) {
    pir::SourceManager sources;
    uint32_t file = sources.add("bench.pir", text);
    pir::DiagnosticEngine diags(sources);
    pir::Module module;
    if (!pir::buildFromBuffer(module, diags, file, ".")) state.SkipWithError("program did not verify");
    std::string printed = pir::printModule(module);
    benchmark::DoNotOptimize(printed.data());
  }
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_ParseVerifyPrint)->Unit(benchmark::kMillisecond)->Iterations(8);

// The printer alone on the million-op module (the timing that used to be a unit
// test assert, Printer.MillionOpsPrintFast: wall-clock limits belong here).
void BM_PrintOnly(benchmark::State& state) {
  pir::SourceManager sources;
  uint32_t file = sources.add("bench.pir", program());
  pir::DiagnosticEngine diags(sources);
  pir::Module module;
  if (!pir::buildFromBuffer(module, diags, file, ".")) state.SkipWithError("program did not verify");
  for (auto _ : state) {
    std::string printed = pir::printModule(module);
    benchmark::DoNotOptimize(printed.data());
  }
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_PrintOnly)->Unit(benchmark::kMillisecond)->Iterations(8);

}  // namespace

int main(int argc, char** argv) {
  pir::configureAllocator();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
