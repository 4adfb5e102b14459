// Front-end throughput: parse + verify (and print) of a generated program of
// one million op statements (issue goal: >= 1M ops/s for parse + verify).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "frontend/builder.h"
#include "ir/printer.h"
#include "ir/diagnostics.h"
#include "ir/ir.h"
#include "repl/allocator.h"

// Heap accounting for BM_ParseVerifyMemory: while `counting` is set, every
// operator new/delete adds or takes its block's usable size (the allocator's
// size class, what the block really costs) to `live`, and `peak` follows the
// largest `live`. Off, the overhead is one relaxed load per call.
namespace heap {
std::atomic<bool> counting{false};
std::atomic<int64_t> live{0};
std::atomic<int64_t> peak{0};
inline void note(void* p, bool add) {
  if (!p || !counting.load(std::memory_order_relaxed)) return;
  const auto n = static_cast<int64_t>(malloc_usable_size(p));
  if (!add) {
    live.fetch_sub(n, std::memory_order_relaxed);
    return;
  }
  const int64_t now = live.fetch_add(n, std::memory_order_relaxed) + n;
  int64_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}
}  // namespace heap

// These replace the global operators: GCC's -Wmismatched-new-delete cannot tell
// that a block from this operator new is malloc's.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  heap::note(p, true);
  return p;
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept {
  heap::note(p, false);
  std::free(p);
}
void operator delete[](void* p) noexcept { ::operator delete(p); }
void operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { ::operator delete(p); }

namespace {

// A main graph whose statements chain through a mix of common op shapes. Each
// result is named `%v<i>` followed by `suffix`: with none the names are numbered
// (the scope holds them by number), with one they are hashed.
std::string generateProgram(int numOps, const char* suffix = "") {
  std::string s;
  s.reserve(static_cast<size_t>(numOps) * 40);
  const auto name = [&](int i) {
    s += "%v";
    s += std::to_string(i);
    s += suffix;
  };
  s += "h2d $x : f32[4]\nd2h $y : f32[4]\nmain {\n  const %c : f32[4] = [1, 2, 3, 4]\n  ";
  name(0);
  s += " = host_load $x\n";
  static const char* kOps[] = {"add", "mul", "sub", "maximum"};
  for (int i = 1; i < numOps; ++i) {
    s += "  ";
    name(i);
    s += " = ";
    s += kOps[i % 4];
    s += " ";
    name(i - 1);
    s += ", %c\n";
  }
  s += "  host_store $y, ";
  name(numOps - 1);
  s += "\n}\n";
  return s;
}

const std::string& program() {
  static const std::string text = generateProgram(1'000'000);
  return text;
}

// Parse + verify only: the source copy before and the module's teardown after
// are outside the timed region.
void parseVerify(benchmark::State& state, const std::string& text) {
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
void BM_ParseVerify(benchmark::State& state) { parseVerify(state, program()); }
BENCHMARK(BM_ParseVerify)->Unit(benchmark::kMillisecond)->Iterations(8);

// The same with names that are not numbered (`%v12x`), all in the scope's
// hashed slots.
void BM_ParseVerifyHashedNames(benchmark::State& state) {
  static const std::string text = generateProgram(1'000'000, "x");
  parseVerify(state, text);
}
BENCHMARK(BM_ParseVerifyHashedNames)->Unit(benchmark::kMillisecond)->Iterations(8);

// The heap that parse + verify of the million-op program takes: `bytes_per_op`
// is the peak of live heap during the build over the heap before it (the IR
// kept plus the parse's transient peaks), `kept_bytes_per_op` what the module
// holds once built. Block sizes are the allocator's usable sizes; the source
// text (made before) is not counted.
void BM_ParseVerifyMemory(benchmark::State& state) {
  const std::string& text = program();
  double peakPerOp = 0, keptPerOp = 0;
  for (auto _ : state) {
    auto sources = std::make_unique<pir::SourceManager>();
    uint32_t file = sources->add("bench.pir", text);
    auto diags = std::make_unique<pir::DiagnosticEngine>(*sources);
    heap::live = 0;
    heap::peak = 0;
    heap::counting = true;
    auto module = std::make_unique<pir::Module>();
    if (!pir::buildFromBuffer(*module, *diags, file, ".")) state.SkipWithError("program did not verify");
    heap::counting = false;
    peakPerOp = static_cast<double>(heap::peak.load()) / 1e6;
    keptPerOp = static_cast<double>(heap::live.load()) / 1e6;
    module.reset();
  }
  state.counters["bytes_per_op"] = peakPerOp;
  state.counters["kept_bytes_per_op"] = keptPerOp;
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_ParseVerifyMemory)->Unit(benchmark::kMillisecond)->Iterations(1);

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
