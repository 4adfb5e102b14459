// Interruptible and linear: Ctrl-C (ir/interrupt.h) stops a run,
// a preview, a load and the parser with a located error and leaves the state
// as any runtime error does; REPL input and echo previews cost work linear in
// the input (asserted through counters, never clocks).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "frontend/builder.h"
#include "frontend/parser.h"
#include "ir/interrupt.h"
#include "repl/repl.h"
#include "api/session_driver.h"
#include "tests/unit/repl_session.h"
#include "vm/npy.h"
#include "vm/session.h"

using namespace pir;

namespace {

// Requests an interrupt from another thread as soon as `started` is seen
// (after the work began), as a SIGINT handler would; joins on destruction.
// The work interrupted is endless, so the outcome does not depend on timing.
class Interrupter {
 public:
  Interrupter() {
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        if (armed_.load()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          requestInterrupt();
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  void arm() { armed_ = true; }
  ~Interrupter() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> armed_{false}, stop_{false};
  std::thread thread_;
};

// A flag left set by a failed test must not leak into the next one.
struct InterruptTest : ::testing::Test {
  void SetUp() override { clearInterrupt(); }
  void TearDown() override { clearInterrupt(); }
};

// An endless loop: 2^62 iterations of a body that changes %v.
const char* kEndless = R"(graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 5
main {
  %r = repeat @b(%v) {count = 4611686018427387904}
  copy_var_update_ %v, %r
}
)";

struct Fixture {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream out, err;
  vm::Session session{m, diags, out};
  pir::SessionDriver driver{m, session, diags};
  Fixture() { diags.setStream(&err); }
  bool build(const std::string& text) {
    return driver.build(sm.add("s.pir", text), ".").succeeded();
  }
};

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

// ---- Ctrl-C in the VM ----------------------------------------------------------------

TEST_F(InterruptTest, EndlessRepeatStopsAtTheOpAndVariablesAreUnchanged) {
  Fixture f;
  ASSERT_TRUE(f.build(std::string(kEndless) + "write %v = 7\n")) << f.err.str();
  Interrupter interrupter;
  interrupter.arm();
  EXPECT_FALSE(f.build("run\n"));
  // Located at the op being executed: the repeat's body op or the repeat.
  const std::string err = f.err.str();
  EXPECT_TRUE(contains(err, "s.pir:2:8: error: add: interrupted") || contains(err, "s.pir:7:8: error: repeat: interrupted"))
      << err;
  clearInterrupt();
  f.err.str({});
  ASSERT_TRUE(f.build("print %v\n")) << f.err.str();
  EXPECT_EQ(f.out.str(), "%v: f32[] = 7\n");
}

TEST_F(InterruptTest, ARequestBeforeTheRunStopsItAndClearingLetsTheNextRunFinish) {
  Fixture f;
  ASSERT_TRUE(f.build(R"(graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 0
main {
  %r = repeat @b(%v) {count = 100}
  copy_var_update_ %v, %r
}
)")) << f.err.str();
  requestInterrupt();
  EXPECT_FALSE(f.build("run\n"));
  EXPECT_TRUE(contains(f.err.str(), "interrupted")) << f.err.str();
  clearInterrupt();
  ASSERT_TRUE(f.build("run\nprint %v\n")) << f.err.str();
  EXPECT_EQ(f.out.str(), "%v: f32[] = 100\n");
}

// `run N` of a program too short to reach a slice end still stops between runs.
TEST_F(InterruptTest, RunManyTimesStopsBetweenRuns) {
  Fixture f;
  ASSERT_TRUE(f.build("var %v : f32[] = 0\nmain {\n  accumulate_ %v, 1\n}\n")) << f.err.str();
  // Interrupted while the runs go on (after the parse, which polls Ctrl-C itself).
  Interrupter interrupter;
  interrupter.arm();
  EXPECT_FALSE(f.build("run 1000000000000\n"));
  EXPECT_TRUE(contains(f.err.str(), "s.pir:1:1: error: run: interrupted")) << f.err.str();
}

// The budget keeps its exact meaning with the interrupt poll folded into it:
// n one-step instructions run under a budget of n, not under n - 1.
TEST_F(InterruptTest, BudgetIsStillExactAcrossSlices) {
  auto runs = [](uint64_t budget, uint64_t instructions) {
    SourceManager sm;
    DiagnosticEngine diags{sm};
    Module m;
    std::ostringstream out, err;
    diags.setStream(&err);
    vm::SessionOptions options;
    options.maxSteps = budget;
    vm::Session session{m, diags, out, options};
    pir::SessionDriver driver{m, session, diags};
    std::string program = "const %c : f32[] = 1\nmain {\n";
    for (uint64_t i = 0; i < instructions; ++i) program += "  %a" + std::to_string(i) + " = add %c, 1\n";
    program += "}\nrun\n";
    const bool ok = driver.build(sm.add("s.pir", program), ".").succeeded();
    if (!ok) {
      EXPECT_TRUE(contains(err.str(), "error: add: the step budget is spent: this instruction needs 1 step, 0 left"))
          << err.str();
    }
    return ok;
  };
  for (uint64_t budget : {1, 31, 32, 33, 64, 65, 200}) {
    SCOPED_TRACE(budget);
    EXPECT_TRUE(runs(budget, budget));
    EXPECT_FALSE(runs(budget, budget + 1));
  }
}

// ---- Ctrl-C in the parser and the NPY reader -------------------------------------------

TEST_F(InterruptTest, ParserStopsAtTheStatementBeingRead) {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  std::ostringstream err;
  diags.setStream(&err);
  Module m;
  requestInterrupt();
  EXPECT_FALSE(buildFromBuffer(m, diags, sm.add("big.pir", "const %a : f32[] = 1\nconst %b : f32[] = 2\n"), "."));
  EXPECT_TRUE(contains(err.str(), "big.pir:1:1: error: interrupted")) << err.str();
}

TEST_F(InterruptTest, NpyReaderStops) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pir-interrupt-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "a.npy").string();
  const float data[2] = {1, 2};
  {
    std::ofstream o(path, std::ios::binary);
    o << vm::encodeNpy(DType::F32, Shape{2}, data);
  }
  EXPECT_NO_THROW(vm::readNpy(path));
  requestInterrupt();
  try {
    vm::readNpy(path);
    ADD_FAILURE() << "an interrupted read returned";
  } catch (const std::exception& e) {
    EXPECT_TRUE(contains(e.what(), "interrupted")) << e.what();
  }
  fs::remove_all(dir);
}

// ---- Ctrl-C in the REPL ---------------------------------------------------------------

using ReplFixture = pir::testing::ReplSession;

TEST_F(InterruptTest, ReplRunIsInterruptedAndTheSessionGoesOn) {
  ReplFixture r;
  // The loop reads a stream, so its echo preview does not run it.
  r.type(R"(h2d $s : f32[]
graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
var %v : f32[] = 5
main {
  %s = host_load $s
  %r = repeat @b(%s) {count = 4611686018427387904}
  copy_var_update_ %v, %r
}
feed $s = 1
write %v = 7
)");
  r.takeErr();
  {
    Interrupter interrupter;
    interrupter.arm();
    r.type("run\n");
  }
  EXPECT_TRUE(contains(r.takeErr(), ": interrupted"));
  EXPECT_FALSE(interruptRequested());  // cleared after the input: the next one runs
  EXPECT_EQ(r.type("print %v\n"), "%v: f32[] = 7\n");
  EXPECT_EQ(r.type("const %k : f32[] = 2\n%w = add %k, 1\n"), "%k: f32[] = 2\n%w: f32[] = 3  (preview: `run` computes it)\n");
  EXPECT_EQ(r.takeErr(), "");
}

// An echo preview that would run for long (a repeat over constants, within a
// preview budget made huge) is interrupted: the preview stops, not the input.
// %r is defined, the echo says it was not previewed, and the interrupt is spent.
TEST_F(InterruptTest, ReplPreviewIsInterruptedAndTheStatementKept) {
  ReplFixture r({}, PreviewBudget{.maxSteps = uint64_t(1) << 62});
  r.type(R"(graph @b(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
const %c : f32[] = 1
)");
  r.takeErr();
  {
    Interrupter interrupter;
    interrupter.arm();
    EXPECT_EQ(r.type("%r = repeat @b(%c) {count = 1000000000000}\n"), "%r: f32[]  (not previewed: interrupted)\n");
  }
  EXPECT_EQ(r.takeErr(), "");
  EXPECT_FALSE(interruptRequested());
  EXPECT_TRUE(r.repl.session().valueType("r"));
  EXPECT_FALSE(r.repl.anyInputFailed());
  EXPECT_EQ(r.type("%s = add %c, 1\n"), "%s: f32[] = 2  (preview: `run` computes it)\n");
  EXPECT_EQ(r.takeErr(), "");
}

TEST_F(InterruptTest, ReplLoadIsInterruptedAndNothingOfTheFileKept) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pir-interrupt-load-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "big.pir").string();
  {
    std::ofstream o(path);
    for (int i = 0; i < 1000; ++i) o << "const %c" << i << " : f32[] = " << i << "\n";
  }
  ReplFixture r;
  requestInterrupt();  // as if pressed while the file is read
  r.type(":load " + path + "\n");
  EXPECT_TRUE(contains(r.takeErr(), "big.pir:1:1: error: interrupted"));
  EXPECT_FALSE(r.repl.session().valueType("c0"));
  EXPECT_FALSE(interruptRequested());
  r.type(":load " + path + "\n");
  EXPECT_EQ(r.takeErr(), "");
  EXPECT_TRUE(r.repl.session().valueType("c999"));
  fs::remove_all(dir);
}

// ---- linear input -------------------------------------------------------------------------

TEST(InputScanner, PiecesAnswerAsTheWholeAndEachCharacterIsScannedOnce) {
  const std::string texts[] = {"feed $x = [[1, 2],\n [3, 4]]", "%y = op %x {s = \"{[(\"}", "save $y \"out",
                               "%y = op %x {s = \"a\\\"}\"}", "print $y # {\n[", "}", "\"a\\", "graph @g() {\n  # }\n"};
  for (const std::string& text : texts) {
    for (size_t cut = 0; cut <= text.size(); ++cut) {
      InputScanner s;
      s.feed(text.substr(0, cut));
      s.feed(text.substr(cut));
      EXPECT_EQ(s.needsMoreInput(), needsMoreInput(text)) << text << " cut at " << cut;
    }
  }
  InputScanner s;
  s.feed("[[1,\n 2]");
  EXPECT_TRUE(s.needsMoreInput());
  EXPECT_EQ(s.charactersScanned(), 8u);
  s.feed("]");
  EXPECT_FALSE(s.needsMoreInput());
}

namespace {
// An N-line literal typed into the REPL.
Repl::Stats typeLiteral(int n, std::string& echoed) {
  ReplFixture r;
  std::string text = "var %m : f32[" + std::to_string(n) + "] = [\n";
  for (int i = 0; i < n; ++i) text += std::to_string(i % 10) + (i + 1 < n ? ",\n" : "]\n");
  echoed = r.type(text);
  EXPECT_EQ(r.takeErr(), "");
  Repl::Stats s = r.repl.stats();
  // Each character of the input (newlines included, the last excepted) is scanned exactly once.
  EXPECT_EQ(s.charactersScanned, text.size() - 1);
  return s;
}

// N chained statements: each preview computes one op.
Repl::Stats typeChain(int n, std::string& echoed) {
  ReplFixture r;
  std::string text = "var %x0 : f32[2] = 1\n";
  for (int i = 1; i < n; ++i) text += "%x" + std::to_string(i) + " = add %x" + std::to_string(i - 1) + ", %x0\n";
  echoed = r.type(text);
  EXPECT_EQ(r.takeErr(), "");
  return r.repl.stats();
}
}  // namespace

TEST(ReplLinear, AnNLineLiteralIsScannedOnce) {
  std::string echoed;
  typeLiteral(3000, echoed);
  EXPECT_EQ(echoed, "%m: f32[3000] = [0, 1, 2, ..., 7, 8, 9]\n");
  const Repl::Stats a = typeLiteral(1000, echoed), b = typeLiteral(2000, echoed);
  EXPECT_LT(b.charactersScanned, 2 * a.charactersScanned + 16);
}

TEST(ReplLinear, PreviewsOfNStatementsDoWorkLinearInN) {
  std::string echoed;
  const Repl::Stats a = typeChain(500, echoed);
  EXPECT_TRUE(contains(echoed, "%x499: f32[2] = [500, 500]  (preview: `run` computes it)\n")) << echoed.substr(echoed.size() - 200);
  const Repl::Stats b = typeChain(1000, echoed);
  EXPECT_TRUE(contains(echoed, "%x999: f32[2] = [1000, 1000]  (preview: `run` computes it)\n"));
  EXPECT_EQ(a.programCompiles, 0u);  // no whole-program compile per statement
  EXPECT_EQ(b.programCompiles, 0u);
  EXPECT_EQ(b.previewOpsCompiled, 1000u);  // one op per statement
  EXPECT_LE(b.previewOpsVisited, 2 * a.previewOpsVisited + 8);
  EXPECT_LE(b.previewOpsVisited, 4000u);
}

// The echo previews an op's n results one by one: the op runs once, not n times
// (a fuzz input split a seed 9,016 ways and took 70 s).
TEST(ReplLinear, AnOpWithNResultsIsPreviewedOnce) {
  ReplFixture r;
  const int n = 3000;
  std::string text = "var %x : f32[" + std::to_string(n) + "] = [";
  std::string splits;
  for (int i = 0; i < n; ++i) {
    text += std::to_string(i) + (i + 1 < n ? ", " : "]\n");
    splits += std::string(i ? ", " : "") + "1";
  }
  text += "%first, %second = split %x {splits = [" + splits + "]}\n";
  const std::string echoed = r.type(text);
  EXPECT_EQ(r.takeErr(), "");
  EXPECT_TRUE(contains(echoed, "%first: f32[1] = [0]  (preview: `run` computes it)\n"));
  EXPECT_TRUE(contains(echoed, "%second: f32[1] = [1]  (preview: `run` computes it)\n"));
  // The generated names are the REPL's; every value is echoed, the last one too.
  EXPECT_TRUE(contains(echoed, ": f32[1] = [2999]  (preview: `run` computes it)\n")) << echoed.substr(echoed.size() - 200);
  EXPECT_LE(r.repl.stats().previewOpsCompiled, 2u);  // the variable's own preview is no op
}

// When an op's preview fails (here the step budget; in the fuzzer the memory
// budget), its other results are not tried one by one: that was n^2 again.
TEST(ReplLinear, AFailedPreviewIsNotRetriedForEachResult) {
  ReplFixture r({}, PreviewBudget{.maxSteps = 20});  // the split touches 3000 elements: 47 steps
  const int n = 3000;
  std::string text = "var %x : f32[" + std::to_string(n) + "] = 1\n%first, %second = split %x {splits = [";
  for (int i = 0; i < n; ++i) text += std::string(i ? ", " : "") + "1";
  text += "]}\n";
  const std::string echoed = r.type(text);
  EXPECT_EQ(r.takeErr(), "");
  // The type and why there is no value.
  EXPECT_TRUE(contains(echoed, "%first: f32[1]  (not previewed: it takes more than 20 steps)\n")) << echoed.substr(0, 200);
  EXPECT_TRUE(contains(echoed, "%second: f32[1]  (not previewed: it takes more than 20 steps)\n"));
  EXPECT_LE(r.repl.stats().previewOpsCompiled, 2u);  // one preview of the split and its input
}

// Writes in place after a value was previewed: later previews read the
// written storage, as the run does.
TEST(ReplLinear, PreviewsFollowInPlaceWritesAndRuns) {
  ReplFixture r;
  EXPECT_EQ(r.type("var %acc : f32[2] = 0\nconst %one : f32[2] = 1\n"),
            "%acc: f32[2] = [0, 0]\n%one: f32[2] = [1, 1]\n");
  EXPECT_EQ(r.type("%a = add %acc, %one\n"), "%a: f32[2] = [1, 1]  (preview: `run` computes it)\n");
  r.type("accumulate_ %acc, %one\n");
  EXPECT_EQ(r.type("%b = add %acc, %one\n"), "%b: f32[2] = [2, 2]  (preview: `run` computes it)\n");
  EXPECT_EQ(r.type("%c = add %a, %b\n"), "%c: f32[2] = [3, 3]  (preview: `run` computes it)\n");
  r.type("run\n");  // %acc is now [1, 1] before main runs
  EXPECT_EQ(r.type("%d = add %acc, %one\n"), "%d: f32[2] = [3, 3]  (preview: `run` computes it)\n");
  EXPECT_EQ(r.type("main {\n  %e = add %d, %one\n  accumulate_ %e, %one\n  %f = add %e, %one\n}\n"),
            "%e: f32[2] = [4, 4]  (preview: `run` computes it)\n%f: f32[2] = [6, 6]  (preview: `run` computes it)\n");
  EXPECT_EQ(r.type("%g = add %e, %f\n"), "%g: f32[2] = [11, 11]  (preview: `run` computes it)\n");
  EXPECT_EQ(r.takeErr(), "");
}
