// REPL input cost (linear in the input): N statements typed line by line, each
// echoed with its preview, and an N-line literal, against the reference of
// the same text loaded as one file (`pir repl -`: one parse, no echo).
// Typed/loaded should stay a constant factor as N grows (it was quadratic:
// 3,000 statements took 15 s, a 100,000-line literal 24 s).
//   build/bench/repl_bench
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>
#include <vector>

#include "repl/allocator.h"
#include "repl/repl.h"

namespace {

// A chain of N statements: every preview needs the one before.
std::vector<std::string> chain(int n) {
  std::vector<std::string> lines{"var %x0 : f32[4] = 1"};
  for (int i = 1; i < n; ++i)
    lines.push_back("%x" + std::to_string(i) + " = add %x" + std::to_string(i - 1) + ", %x0");
  return lines;
}

// One `var` whose literal spans N lines.
std::vector<std::string> literal(int n) {
  std::vector<std::string> lines{"var %m : f32[" + std::to_string(n) + "] = ["};
  for (int i = 0; i < n; ++i) lines.push_back(std::to_string(i % 10) + (i + 1 < n ? "," : "]"));
  return lines;
}

void typed(benchmark::State& state, std::vector<std::string> (*make)(int)) {
  const std::vector<std::string> lines = make(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::ostringstream out, err;
    pir::Repl repl(out, err);
    for (const std::string& line : lines) repl.feedLine(line);
    repl.finish();
    if (repl.anyInputFailed()) state.SkipWithError(err.str().c_str());
    benchmark::DoNotOptimize(out.str().size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void loaded(benchmark::State& state, std::vector<std::string> (*make)(int)) {
  std::string text;
  for (const std::string& line : make(static_cast<int>(state.range(0)))) text += line + "\n";
  for (auto _ : state) {
    std::ostringstream out, err;
    pir::Repl repl(out, err);
    std::istringstream in(text);
    if (repl.loadFile("-", in) != 0) state.SkipWithError(err.str().c_str());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_TypedStatements(benchmark::State& s) { typed(s, chain); }
void BM_LoadedStatements(benchmark::State& s) { loaded(s, chain); }
void BM_TypedLiteralLines(benchmark::State& s) { typed(s, literal); }
void BM_LoadedLiteralLines(benchmark::State& s) { loaded(s, literal); }

BENCHMARK(BM_LoadedStatements)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TypedStatements)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadedLiteralLines)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TypedLiteralLines)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  pir::configureAllocator();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
