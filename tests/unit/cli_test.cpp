// The `pir` command line in-process (tools.md §1): exit codes, usage text,
// standard input, `opt -o`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ir/version.h"
#include "repl/cli.h"
#include "repl/commands.h"
#include "api/pass_runner.h"
#include "api/session_driver.h"
#include "frontend/builder.h"

namespace pir::cli {
namespace {

namespace fs = std::filesystem;

struct Result {
  int status;
  std::string out, err;
};

Result runPir(std::vector<std::string> args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out, err;
  int status = run(args, in, out, err);
  return {status, out.str(), err.str()};
}

const char* kGood =
    "h2d $x : f32[2]\n"
    "%x = host_load $x   # comment\n"
    "%y = add %x, 1\n";
const char* kBad = "const %a : f32[2] = [1, 2]\n%b = add %a, %nope\n";

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("pir_cli_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                       "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
  static std::string read(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  fs::path dir;
};

TEST(Cli, Version) {
  Result r = runPir({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "pir " PIR_VERSION "\n");  // CMake's project(VERSION), via ir/version.h
  EXPECT_EQ(r.err, "");
}

TEST(Cli, HelpListsCommands) {
  Result r = runPir({"--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* cmd : {"usage: pir", "run FILE", "check FILE", "opt FILE", "repl [FILE]", "disasm FILE"})
    EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd << " in\n" << r.out;
  EXPECT_EQ(runPir({"help"}).out, r.out);
}

TEST(Cli, HelpForOneCommand) {
  Result r = runPir({"help", "opt"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("usage: pir opt FILE", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("--print-after-each"), std::string::npos);
  EXPECT_NE(r.out.find("-o OUT"), std::string::npos);
  EXPECT_EQ(runPir({"opt", "--help"}).out, r.out);
  EXPECT_EQ(runPir({"check", "x.pir", "-h"}).out, runPir({"help", "check"}).out);
}

TEST(Cli, UsageErrorsExitTwo) {
  Result unknown = runPir({"frobnicate"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("pir: error: unknown command 'frobnicate'"), std::string::npos) << unknown.err;
  EXPECT_EQ(runPir({"help", "frobnicate"}).status, 2);
  EXPECT_EQ(runPir({"--frobnicate"}).status, 2);
  EXPECT_EQ(runPir({"check"}).status, 2);
  EXPECT_EQ(runPir({"check", "a.pir", "b.pir"}).status, 2);
  Result badOption = runPir({"opt", "-", "--bogus"}, kGood);
  EXPECT_EQ(badOption.status, 2);
  EXPECT_NE(badOption.err.find("unknown option '--bogus'"), std::string::npos) << badOption.err;
  EXPECT_NE(badOption.err.find("usage: pir opt"), std::string::npos) << badOption.err;
  EXPECT_EQ(runPir({"opt", "-", "-o"}, kGood).status, 2);
  EXPECT_EQ(runPir({"run", "-", "--threads=zero"}, kGood).status, 2);
}

// --max-steps=N is the session's step budget (decisions.md "Resource budgets"), for
// `run` and `repl` alike: three one-step runs fit in 3 steps, not in 2.
TEST(Cli, MaxStepsBoundsTheRunsOfRunAndRepl) {
  const std::string program = "var %v : f32[] = 0\nmain {\n  accumulate_ %v, 1\n}\nrun 3\nprint %v\n";
  Result fits = runPir({"run", "-", "--max-steps=3"}, program);
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_EQ(fits.out, "%v: f32[] = 3\n");
  Result over = runPir({"run", "-", "--max-steps=2"}, program);
  EXPECT_EQ(over.status, 1);
  // The third run finds no step left: it stops at the command, before its first instruction.
  EXPECT_NE(over.err.find("<stdin>:5:1: error: run: the step budget is spent: a run needs 1 step, 0 left"),
            std::string::npos)
      << over.err;
  Result repl = runPir({"repl", "--max-steps=2"}, program);
  EXPECT_EQ(repl.status, 1);
  EXPECT_NE(repl.err.find("error: run: the step budget is spent"), std::string::npos) << repl.err;
  EXPECT_NE(repl.out.find("%v: f32[] = 0\n"), std::string::npos) << repl.out;  // the failed `run 3` kept nothing
  for (const char* bad : {"--max-steps=0", "--max-steps=-1", "--max-steps=1e3", "--max-steps=", "--max-steps=99999999999999999999"}) {
    Result r = runPir({"run", "-", bad}, program);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--max-steps needs a positive integer"), std::string::npos) << r.err;
  }
}

TEST(Cli, ThreadsOutOfRangeStatesTheLimit) {
  const std::string program = "const %a : f32[] = 1\nrun\nprint %a\n";
  for (const char* bad : {"--threads=100000", "--threads=0", "--threads=-3", "--threads=x"}) {
    Result r = runPir({"run", "-", bad}, program);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--threads needs an integer from 1 to 4096, got '"), std::string::npos) << r.err;
  }
  EXPECT_EQ(runPir({"run", "-", "--threads=4096"}, program).status, 0);
}

TEST(Cli, UnknownPassIsAUsageErrorListingPasses) {
  Result r = runPir({"opt", "-", "--passes=no-such-pass"}, kGood);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("pir: error: --passes=no-such-pass: unknown pass 'no-such-pass'; available passes: "), std::string::npos) << r.err;
  for (const std::string& pass : availablePasses()) EXPECT_NE(r.err.find(pass), std::string::npos) << pass;
  EXPECT_EQ(r.out, "");
  // An empty list is no passes at all.
  EXPECT_EQ(runPir({"opt", "-", "--passes="}, kGood).status, 0);
}

TEST(Cli, CheckIsSilentOnSuccess) {
  Result r = runPir({"check", "-"}, kGood);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(Cli, ProgramErrorsExitOneWithLocatedDiagnostics) {
  Result r = runPir({"check", "-"}, kBad);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("<stdin>:2:14: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("\n  %b = add %a, %nope\n               ^\n"), std::string::npos) << r.err;
  EXPECT_EQ(runPir({"opt", "-"}, kBad).status, 1);
}

TEST(Cli, WarningsDoNotChangeTheStatus) {
  Result r = runPir({"check", "-"}, "h2d $big : int64[2]\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("<stdin>:1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": warning: "), std::string::npos) << r.err;
}

TEST(Cli, OptPrintsCanonicalText) {
  Result r = runPir({"opt", "-"}, kGood);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "h2d $x : f32[2]\n\n"
            "main {\n"
            "  %x = host_load $x : f32[2]\n"
            "  %y = add %x, 1 : f32[2]\n"
            "}\n");
}

TEST_F(TempDir, UnreadableFileExitsTwo) {
  std::string missing = (dir / "missing.pir").string();
  Result r = runPir({"check", missing});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "pir: error: cannot read " + missing + ": No such file or directory\n");
  Result d = runPir({"opt", dir.string()});
  EXPECT_EQ(d.status, 2);
  EXPECT_EQ(d.err, "pir: error: cannot read " + dir.string() + ": Is a directory\n");
}

TEST_F(TempDir, DoubleDashEndsOptions) {
  std::string odd = write("-odd.pir", kGood);
  EXPECT_EQ(runPir({"check", odd}).status, 0);  // an absolute path does not start with '-'
  fs::path previous = fs::current_path();
  fs::current_path(dir);
  Result asOption = runPir({"check", "-odd.pir"});
  Result afterDashes = runPir({"check", "--", "-odd.pir"});
  fs::current_path(previous);
  EXPECT_EQ(asOption.status, 2);  // read as an unknown option
  EXPECT_EQ(afterDashes.status, 0) << afterDashes.err;
}

TEST_F(TempDir, DiagnosticsNameTheFileAsGiven) {
  std::string bad = write("bad.pir", kBad);
  Result r = runPir({"check", bad});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind(bad + ":2:14: error: ", 0), 0u) << r.err;
}

TEST_F(TempDir, OptWritesOutputFileAtomically) {
  std::string in = write("good.pir", kGood);
  std::string out = (dir / "out.pir").string();
  Result r = runPir({"opt", in, "-o", out});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read(out), runPir({"opt", in}).out);
  // Only the input and the output: no temporary left behind.
  int files = 0;
  for (auto& e : fs::directory_iterator(dir)) (void)e, ++files;
  EXPECT_EQ(files, 2);

  // Overwrites an existing file; `-o=` spelling too.
  std::ofstream(out) << "old";
  EXPECT_EQ(runPir({"opt", in, "-o=" + out}).status, 0);
  EXPECT_EQ(read(out), runPir({"opt", in}).out);

  // A program error writes nothing.
  std::string bad = write("bad.pir", kBad);
  std::string badOut = (dir / "bad.out").string();
  EXPECT_EQ(runPir({"opt", bad, "-o", badOut}).status, 1);
  EXPECT_FALSE(fs::exists(badOut));

  // An unwritable destination is reported.
  Result w = runPir({"opt", in, "-o", (dir / "no" / "such" / "dir.pir").string()});
  EXPECT_EQ(w.status, 2);
  EXPECT_NE(w.err.find("pir: error: cannot write "), std::string::npos) << w.err;
}

TEST(Cli, BaseDirOf) {
  EXPECT_EQ(baseDirOf("-"), ".");
  EXPECT_EQ(baseDirOf("x.pir"), ".");
  EXPECT_EQ(baseDirOf("a/b/x.pir"), "a/b");
  EXPECT_EQ(baseDirOf("/x.pir"), "/");
}

// `pir run` keeps only the main values the script's print / save commands read,
// found in the parsed script (not by scanning the text: a comment counts for nothing).
TEST(Cli, ScriptNamesEveryValueACommandReads) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  Module m;
  Script script;
  const uint32_t file = sm.add("s.pir",
                               "h2d $y : f32[]\nmain {\n  %a = init {shape = [2], dtype = f32}\n"
                               "  %print_tensor = add %a, 1   # print %c\n  %x = add %a, 1\n  %s = add %a, 2\n"
                               "  %z.1 = add %a, 3\n  add %a, 4\n}\nprint %x, $y, # a comment between targets\n   %z.1\n"
                               "save %s \"out.npy\"\nprint %0\n%0 = add %a, 5\n");
  ASSERT_TRUE(buildFromBuffer(m, diags, file, ".", &script));
  ASSERT_EQ(script.size(), 3u);
  // `print %0` read the generated %0, renamed %1 when the user's %0 came.
  EXPECT_EQ(mainValuesReadBy(script), (std::set<std::string>{"x", "z.1", "s", "1"}));
}

// A script that prints a main value after the run still sees it; one that fails
// stops with status 1 (no state is kept for after the error).
TEST(Cli, RunPrintsMainValuesNamedLaterAndStopsAtTheFirstRuntimeError) {
  const char* chain =
      "main {\n  %x0 = init {shape = [4], dtype = f32}\n  %x1 = add %x0, 1\n  %x2 = add %x1, 1\n"
      "  %x3 = add %x2, 1\n}\nrun\nprint %x1\nprint %x3\n";
  Result r = runPir({"run", "-"}, chain);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "%x1: f32[4] = [1, 1, 1, 1]\n%x3: f32[4] = [3, 3, 3, 3]\n");
  Result failed = runPir({"run", "-"},
                         "h2d $d : i32[]\nmain {\n  var %w : i32[] = 1\n  accumulate_ %w, 1\n  %d = host_load $d\n"
                         "  %q = div %w, %d\n}\nfeed $d = 0\nrun\nprint %w\n");
  EXPECT_EQ(failed.status, 1);
  EXPECT_EQ(failed.out, "");
  EXPECT_NE(failed.err.find("div: integer division by zero"), std::string::npos) << failed.err;
}

}  // namespace
}  // namespace pir::cli
