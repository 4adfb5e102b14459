// The REPL driven in-process, line by line (tools.md §5): echo, previews,
// continuation, error recovery, meta-commands, undo, completion.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "repl/line_editor.h"
#include "repl/repl.h"
#include "tests/unit/repl_session.h"
#include "vm/host_memory.h"

using namespace pir;

namespace {

using Session = pir::testing::ReplSession;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

// ---- pure helpers -------------------------------------------------------------------

TEST(ReplMeta, ExactNamesAndUniquePrefixesResolve) {
  EXPECT_EQ(Repl::resolveMetaCommand("print"), "print");
  EXPECT_EQ(Repl::resolveMetaCommand("q"), "quit");
  EXPECT_EQ(Repl::resolveMetaCommand("h"), "help");
  EXPECT_EQ(Repl::resolveMetaCommand("gr"), "graphs");
  EXPECT_EQ(Repl::resolveMetaCommand("u"), "undo");
  EXPECT_EQ(Repl::resolveMetaCommand("pri"), "print");
  EXPECT_EQ(Repl::resolveMetaCommand("dis"), "disasm");
}

TEST(ReplMeta, AmbiguousAndUnknownAreRejectedWithCandidates) {
  std::vector<std::string> candidates;
  EXPECT_FALSE(Repl::resolveMetaCommand("p", &candidates));
  EXPECT_EQ(candidates, (std::vector<std::string>{"print", "passes", "profile"}));
  EXPECT_FALSE(Repl::resolveMetaCommand("d", &candidates));
  EXPECT_EQ(candidates, (std::vector<std::string>{"dot", "disasm"}));
  EXPECT_FALSE(Repl::resolveMetaCommand("frobnicate", &candidates));
  EXPECT_TRUE(candidates.empty());
  EXPECT_FALSE(Repl::resolveMetaCommand("", &candidates));
}

TEST(LineEditorHelpers, CommonPrefixAndWordStart) {
  EXPECT_EQ(commonPrefix({"sigmoid", "sign", "sin"}), "si");
  EXPECT_EQ(commonPrefix({}), "");
  EXPECT_EQ(completionWordStart("%y = add %wei"), 9u);
  EXPECT_EQ(completionWordStart(":gra"), 0u);
  EXPECT_EQ(completionWordStart("  :gra"), 2u);
  EXPECT_EQ(completionWordStart("host_load $x"), 10u);
  EXPECT_EQ(completionWordStart("call @s"), 5u);
  EXPECT_EQ(completionWordStart("%a = "), 5u);
  // ':' inside a statement is not a meta-command marker.
  EXPECT_EQ(completionWordStart("h2d $x :f3"), 8u);
}

TEST(LineEditorHelpers, TabCompletesUniqueExtendsCommonListsOtherwise) {
  TabAction unique = tabAction("%wei", {"%weights"});
  EXPECT_EQ(unique.insert, "ghts ");
  EXPECT_FALSE(unique.listCandidates);
  TabAction common = tabAction("s", {"sigmoid", "sign", "sin"});
  EXPECT_EQ(common.insert, "i");
  TabAction list = tabAction("si", {"sigmoid", "sign", "sin"});
  EXPECT_EQ(list.insert, "");
  EXPECT_TRUE(list.listCandidates);
  TabAction none = tabAction("zz", {});
  EXPECT_EQ(none.insert, "");
  EXPECT_FALSE(none.listCandidates);
}

// ---- the REPL -----------------------------------------------------------------------

TEST(Repl, EchoesTheSpecExampleExactly) {
  Session s;
  EXPECT_EQ(s.type("h2d $x : f32[2]"), "");
  EXPECT_EQ(s.type("var %w : f32[2] = [1, 2]"), "%w: f32[2] = [1, 2]\n");
  EXPECT_EQ(s.type("%x = host_load $x"), "%x: f32[2]\n");
  EXPECT_EQ(s.type("%y = mul %x, %w"), "%y: f32[2]\n");
  EXPECT_EQ(s.type("graph @sq(%a: f32[2]) -> (f32[2]) {"), "");
  EXPECT_TRUE(s.repl.inputOpen());
  EXPECT_EQ(s.type("  %b = mul %a, %a\n  return %b"), "");
  EXPECT_EQ(s.type("}"), "@sq(f32[2]) -> (f32[2])\n");
  EXPECT_FALSE(s.repl.inputOpen());
  EXPECT_EQ(s.type("d2h $out : f32[2]"), "");
  EXPECT_EQ(s.type("%z = call @sq(%y)"), "%z: f32[2]\n");
  EXPECT_EQ(s.type("host_store $out, %z"), "");
  EXPECT_EQ(s.type("feed $x = [3, 4]"), "");
  EXPECT_EQ(s.type("run"), "$out: f32[2] = [9, 64]\n");
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_EQ(s.repl.exitStatus(), 0);
}

TEST(Repl, PreviewsValuesComputableFromConstantsAndVariables) {
  Session s;
  EXPECT_EQ(s.type("const %c : f32[2] = [10, 20]"), "%c: f32[2] = [10, 20]\n");
  EXPECT_EQ(s.type("var %v : f32[2] = 1"), "%v: f32[2] = [1, 1]\n");
  EXPECT_EQ(s.type("%s = add %c, %v"), "%s: f32[2] = [11, 21]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.type("h2d $x : f32[2]\n%x = host_load $x"), "%x: f32[2]\n");
  EXPECT_EQ(s.type("%t = add %x, %s"), "%t: f32[2]\n");
}

TEST(Repl, GraphSignatureMarksByReferenceInputs) {
  Session s;
  EXPECT_EQ(s.type("graph @acc(%a: &f32[2], %b: f32[2]) {\n  accumulate_ %a, %b\n  return\n}"),
            "@acc(&f32[2], f32[2]) -> ()\n");
  EXPECT_EQ(s.type(":graphs"), "@acc(&f32[2], f32[2]) -> ()\n");
  EXPECT_EQ(s.type(":type @acc"), "@acc(&f32[2], f32[2]) -> ()\n");
}

TEST(Repl, FailedInputLeavesTheSessionAsBefore) {
  Session s;
  s.type("var %w : f32[2] = [1, 2]");
  EXPECT_EQ(s.type("%y = add %w, %nope"), "");
  std::string e = s.takeErr();
  EXPECT_TRUE(contains(e, "<repl>:2:14: error: ")) << e;
  EXPECT_TRUE(s.repl.anyInputFailed());
  // %y was not defined by the failed input.
  EXPECT_EQ(s.type("%y = add %w, %w"), "%y: f32[2] = [2, 4]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_EQ(s.repl.exitStatus(), 1);
}

// A failed exchange block, in main and in a subgraph, leaves nothing behind: the
// ops already appended to the block go with it (the fuzzer found the undo of
// those appends running after the block was freed; the sanitize label sees it).
TEST(Repl, AFailedExchangeBlockIsUndoneWhole) {
  Session s;
  s.type("h2d $x : f32[2]\nconst %c : f32[2] = 1");
  EXPECT_EQ(s.type("exchange {\n  %a = host_load $x\n  %b = neg %c\n}"), "");
  std::string e = s.takeErr();
  EXPECT_TRUE(contains(e, "only IO ops")) << e;
  EXPECT_EQ(s.type("graph @g(%v: f32[2]) -> () {\n  exchange {\n  %a = host_load $x\n  %b = neg %v\n  }\n  return\n}"),
            "");
  e = s.takeErr();
  EXPECT_TRUE(contains(e, "only IO ops")) << e;
  // Neither %a nor @g exists; the session goes on.
  EXPECT_EQ(s.type("exchange {\n  %a = host_load $x\n}"), "%a: f32[2]\n");
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_EQ(s.type("graph @g(%v: f32[2]) -> (f32[2]) {\n  %n = neg %v\n  return %n\n}\n%r = call @g(%c)"),
            "@g(f32[2]) -> (f32[2])\n%r: f32[2] = [-1, -1]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.takeErr(), "");
}

// pir_fuzz_repl found a heap-use-after-free: a graph header that failed after
// some parameters were made (a repeated name, an unknown grad_of, bad activations)
// left journal entries for the freed graph, which the input's rollback ran.
TEST(Repl, AFailedGraphHeaderIsUndoneWithoutItsGraph) {
  Session s;
  const char* failing[] = {
      "graph @g(%a: f32[2], %a: f32[2]) -> (f32[2]) {\n  return %a\n}",
      "graph @g(%a: f32[2], %b: f32[2]) -> (f32[2]) attributes {grad_of = @nowhere} {\n  return %a\n}",
      "graph @g(%a: f32[2]) -> (f32[2]) attributes {activations = [%a]} {\n  return %a\n}",
  };
  const char* expected[] = {"redefinition of %a", "grad_of: unknown graph @nowhere", "needs grad_of"};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(s.type(failing[i]), "") << failing[i];
    const std::string e = s.takeErr();
    EXPECT_TRUE(contains(e, expected[i])) << e;
  }
  // No @g exists; it can be defined and called.
  EXPECT_EQ(s.type("graph @g(%a: f32[2]) -> (f32[2]) {\n  %n = neg %a\n  return %n\n}\n%r = call @g([1, 2])"),
            "@g(f32[2]) -> (f32[2])\n%r: f32[2] = [-1, -2]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.takeErr(), "");
}

TEST(Repl, AFailedStatementInAnInputUndoesTheWholeInput) {
  Session s;
  EXPECT_EQ(s.type("var %a : f32[1] = 1; %b = add %a, %missing"), "");
  EXPECT_FALSE(s.takeErr().empty());
  EXPECT_EQ(s.type("var %a : f32[1] = 2"), "%a: f32[1] = [2]\n");
}

TEST(Repl, LineNumbersCountEveryInputLineOfTheSession) {
  Session s;
  s.type("var %w : f32[2] = [1, 2]");  // line 1
  s.repl.feedLine("");                 // line 2
  s.type(":type %w");                  // line 3
  s.type("graph @g(%a: f32[2]) {\n  %b = neg %a\n  %c = add %b, %undefined\n  return %c\n}");  // lines 4-8
  std::string e = s.takeErr();
  EXPECT_TRUE(contains(e, "<repl>:6:16: error: ")) << e;
  EXPECT_TRUE(contains(e, "  %c = add %b, %undefined\n")) << e;
  // The failed graph left nothing behind, and no graph is open.
  EXPECT_FALSE(s.repl.inputOpen());
  EXPECT_EQ(s.type("graph @g(%a: f32[2]) {\n  return %a\n}"), "@g(f32[2]) -> (f32[2])\n");
}

TEST(Repl, RuntimeErrorKeepsVariablesAsBeforeTheRun) {
  Session s;
  s.type("h2d $x : f32[2]\nvar %acc : f32[2] = 0\nconst %one : f32[2] = 1");
  s.type("accumulate_ %acc, %one\n%x = host_load $x\naccumulate_ %acc, %x");
  s.out.str({});
  EXPECT_EQ(s.type("run"), "");
  EXPECT_TRUE(contains(s.takeErr(), "error: "));
  EXPECT_EQ(s.type("print %acc"), "%acc: f32[2] = [0, 0]\n");
  EXPECT_EQ(s.type("feed $x = [10, 20]\nrun\nprint %acc"), "%acc: f32[2] = [11, 21]\n");
}

// An undo entry keeps a summary of its input, not the input: a long line is cut
// at 120 bytes (never inside a UTF-8 character) and says it goes on.
TEST(Repl, AnUndoSummaryOfALongLineIsShort) {
  Session s;
  std::string data;
  for (int i = 0; i < 100000; ++i) data += i ? ", 1" : "1";
  s.type("const %c : f32[100000] = [" + data + "]  # \u00e9");
  const std::string undone = s.type(":undo");
  EXPECT_EQ(undone, "undone: const %c : f32[100000] = [" + data.substr(0, 120 - 26) + " ...\n");
  s.type("const %d : f32[] = 1 # " + std::string(96, 'x') + "\u00e9\u00e9");  // the cut falls inside the first é
  EXPECT_EQ(s.type(":undo"), "undone: const %d : f32[] = 1 # " + std::string(96, 'x') + " ...\n");
}

TEST(Repl, UndoRemovesTheLastChangeAndSaysWhat) {
  Session s;
  s.type("var %a : f32[1] = 1");
  s.type("%b = add %a, %a");
  s.type("print %b");  // not undoable: changes nothing
  EXPECT_EQ(s.type(":undo"), "undone: %b = add %a, %a\n");
  EXPECT_EQ(s.type(":type %b"), "");
  EXPECT_TRUE(contains(s.takeErr(), "no value %b"));
  EXPECT_EQ(s.type("%b = neg %a"), "%b: f32[1] = [-1]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.type(":u"), "undone: %b = neg %a\n");
  EXPECT_EQ(s.type(":undo"), "undone: var %a : f32[1] = 1\n");
  EXPECT_EQ(s.type(":undo"), "");
  EXPECT_TRUE(contains(s.takeErr(), "nothing to undo"));
}

TEST(Repl, UndoOfARunRestoresVariables) {
  Session s;
  s.type("var %acc : f32[1] = 0\nconst %one : f32[1] = 1\naccumulate_ %acc, %one");
  s.type("run");
  s.type("run");
  EXPECT_EQ(s.type("print %acc"), "%acc: f32[1] = [2]\n");
  EXPECT_EQ(s.type(":undo"), "undone: run\n");
  EXPECT_EQ(s.type("print %acc"), "%acc: f32[1] = [1]\n");
}

// Undo snapshots share buffers with the session (copy-on-write): each holds only
// what later inputs replaced, charged to the host-memory budget, and the oldest go
// when more than half the budget is in use. A budget that could not hold a copy of
// the variable per run still runs them all, and the newest undo still works.
TEST(Repl, UndoSnapshotsAreChargedAndTrimmedToTheBudget) {
  const uint64_t saved = vm::hostMemoryLimit();
  Session s;
  s.type("var %v : f32[262144] = 0\nconst %one : f32[] = 1\nadd_ %v, %one");
  const uint64_t variable = 262144 * 4;
  EXPECT_EQ(s.type("print %v"), "%v: f32[262144] = [0, 0, 0, ..., 0, 0, 0]\n");  // compiles
  const uint64_t defined = vm::hostMemoryInUse();
  EXPECT_EQ(s.type("var %w : f32[] = 1"), "%w: f32[] = 1\n");
  EXPECT_EQ(s.type(":undo"), "undone: var %w : f32[] = 1\n");
  EXPECT_EQ(s.type("print %v"), "%v: f32[262144] = [0, 0, 0, ..., 0, 0, 0]\n");
  // Snapshots of unchanged state cost nothing (undo may also drop cached echo previews).
  EXPECT_LE(vm::hostMemoryInUse(), defined);
  EXPECT_GE(vm::hostMemoryInUse(), variable);
  vm::setHostMemoryLimit(defined + 6 * variable);
  for (int i = 0; i < 12; ++i) s.type("run");
  vm::setHostMemoryLimit(saved);
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_LE(vm::hostMemoryInUse(), defined + 6 * variable);
  EXPECT_EQ(s.type("print %v"), "%v: f32[262144] = [12, 12, 12, ..., 12, 12, 12]\n");
  EXPECT_EQ(s.type(":undo"), "undone: run\n");
  EXPECT_EQ(s.type("print %v"), "%v: f32[262144] = [11, 11, 11, ..., 11, 11, 11]\n");
}

// Defining a variable costs it once: the initial value is shared by the state, the
// echo's preview and the snapshots (a budget of 1.5x the variable admits it, echo
// included; the variable was copied for the state and again for the preview).
TEST(Repl, DefiningAVariableCostsItOnce) {
  const uint64_t saved = vm::hostMemoryLimit();
  Session s;
  s.type("var %small : f32[] = 1");
  const uint64_t variable = 1048576 * 4;
  vm::setHostMemoryLimit(vm::hostMemoryInUse() + variable + variable / 2);
  const std::string echoed = s.type("var %big : f32[1048576] = 3\nvar %other : f32[4] = 2");
  vm::setHostMemoryLimit(saved);
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_EQ(echoed, "%big: f32[1048576] = [3, 3, 3, ..., 3, 3, 3]\n%other: f32[4] = [2, 2, 2, 2]\n");
}

TEST(Repl, ResetRestoresInitialVariableValues) {
  Session s;
  s.type("var %acc : f32[1] = 5\nconst %one : f32[1] = 1\naccumulate_ %acc, %one\nrun");
  EXPECT_EQ(s.type("print %acc"), "%acc: f32[1] = [6]\n");
  EXPECT_EQ(s.type(":reset"), "");
  EXPECT_EQ(s.type("print %acc"), "%acc: f32[1] = [5]\n");
  EXPECT_EQ(s.takeErr(), "");
}

TEST(Repl, MetaCommandsTypePrintAndErrors) {
  Session s;
  s.type("h2d $x : f32[2]\nvar %w : f32[2] = [1, 2]");
  EXPECT_EQ(s.type(":type %w"), "%w: f32[2]\n");
  EXPECT_EQ(s.type(":t $x"), "$x: f32[2] (h2d)\n");
  std::string printed = s.type(":print");
  EXPECT_TRUE(contains(printed, "h2d $x : f32[2]")) << printed;
  EXPECT_TRUE(contains(printed, "var %w : f32[2] = [1, 2]")) << printed;
  EXPECT_TRUE(contains(s.type(":print @main"), "var %w")) ;
  EXPECT_TRUE(contains(s.type(":help"), ":undo"));
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_FALSE(s.repl.anyInputFailed());

  EXPECT_EQ(s.type(":p"), "");
  EXPECT_TRUE(contains(s.takeErr(), "ambiguous command ':p': :print, :passes, :profile"));
  EXPECT_TRUE(s.repl.anyInputFailed());
  EXPECT_EQ(s.type(":nosuch"), "");
  EXPECT_TRUE(contains(s.takeErr(), "unknown command ':nosuch'"));
  EXPECT_EQ(s.type(":print @nosuch"), "");
  EXPECT_TRUE(contains(s.takeErr(), "no graph @nosuch"));
  EXPECT_EQ(s.type(":type"), "");
  EXPECT_TRUE(contains(s.takeErr(), "usage: :type"));
}

TEST(Repl, QuitStopsTheSession) {
  Session s;
  EXPECT_FALSE(s.repl.quitRequested());
  s.type(":q");
  EXPECT_TRUE(s.repl.quitRequested());
}

TEST(Repl, AbandonedInputIsDropped) {
  Session s;
  s.type("graph @g(%a: f32[2]) {\n  %b = neg %a");
  EXPECT_TRUE(s.repl.inputOpen());
  s.repl.abandonInput();
  EXPECT_FALSE(s.repl.inputOpen());
  EXPECT_EQ(s.type(":graphs"), "(no subgraphs: only the main graph, which takes no inputs)\n");
  EXPECT_EQ(s.takeErr(), "");
}

// The step budget (vm::SessionOptions::maxSteps) is the session's: previews do
// not spend it, they have their own (PreviewBudget). Each preview of `add` on
// f32[6400] takes 201 steps, so two of them would leave the run 48 of 450.
TEST(Repl, PreviewsDoNotSpendTheSessionsStepBudget) {
  Session s(vm::SessionOptions{.maxSteps = 450});
  s.type("var %v : f32[6400] = 0\n");
  EXPECT_TRUE(contains(s.type("%a = add %v, 1\n"), "%a: f32[6400] = [1, 1, 1, ..., 1, 1, 1]")) << s.takeErr();
  EXPECT_TRUE(contains(s.type("%b = add %v, 2\n"), "%b: f32[6400] = [2, 2, 2, ..., 2, 2, 2]"));
  EXPECT_EQ(s.type("run\nprint %b\n"), "%b: f32[6400] = [2, 2, 2, ..., 2, 2, 2]\n");
  EXPECT_EQ(s.takeErr(), "");
}

TEST(Repl, UnfinishedInputAtEndFailsWithALocatedError) {
  Session s;
  s.type("graph @g(%a: f32[2]) {");
  s.repl.finish();
  EXPECT_TRUE(contains(s.takeErr(), "<repl>:"));
  EXPECT_EQ(s.repl.exitStatus(), 1);
}

TEST(Repl, CompletesNamesInScopeOpsKeywordsAndMetaCommands) {
  Session s;
  s.type("h2d $input : f32[2]\nvar %weights : f32[2] = 1\ngraph @square(%a: f32[2]) {\n  return %a\n}");
  auto candidates = [&](const std::string& line) { return s.repl.complete(line).candidates; };
  EXPECT_EQ(candidates("%y = add %wei"), std::vector<std::string>{"%weights"});
  EXPECT_EQ(s.repl.complete("%y = add %wei").wordStart, 9u);
  EXPECT_EQ(candidates("%y = call @sq"), std::vector<std::string>{"@square"});
  EXPECT_EQ(candidates("%x = host_load $in"), std::vector<std::string>{"$input"});
  EXPECT_EQ(candidates("%z = sigm"), (std::vector<std::string>{"sigmoid", "sigmoid_"}));
  EXPECT_EQ(candidates("%z = softp"), std::vector<std::string>{"softplus"});
  EXPECT_EQ(candidates("autod"), std::vector<std::string>{"autodiff"});
  EXPECT_EQ(candidates(":gr"), std::vector<std::string>{":graphs"});
  EXPECT_EQ(candidates(":p"), (std::vector<std::string>{":print", ":passes", ":profile"}));
  EXPECT_TRUE(candidates("%y = add %nothing").empty());
  // While a graph body is typed, its parameters complete too.
  s.type("graph @h(%alpha: f32[2], %beta: f32[2]) {");
  EXPECT_EQ(candidates("  %c = add %al"), std::vector<std::string>{"%alpha"});
}

TEST(Repl, LoadsAFileWithoutEchoAndNamesItInDiagnostics) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("pir_repl_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path good = dir / "lib.pir", bad = dir / "bad.pir";
  std::ofstream(good) << "graph @twice(%a: f32[2]) {\n  %b = add %a, %a\n  return %b\n}\nvar %w : f32[2] = [1, 2]\n";
  std::ofstream(bad) << "var %v : f32[2] = 1\n\n%q = add %v, %missing\n";

  Session s;
  EXPECT_EQ(s.type(":load " + good.string()), "");
  EXPECT_EQ(s.takeErr(), "");
  EXPECT_EQ(s.type("%y = call @twice(%w)"), "%y: f32[2] = [2, 4]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.type(":load " + bad.string()), "");
  std::string e = s.takeErr();
  EXPECT_TRUE(contains(e, bad.string() + ":3:14: error: ")) << e;
  EXPECT_EQ(s.type(":type %v"), "");  // the failed file left nothing behind
  EXPECT_TRUE(contains(s.takeErr(), "no value %v"));
  EXPECT_EQ(s.type(":load " + (dir / "absent.pir").string()), "");
  EXPECT_TRUE(contains(s.takeErr(), "cannot read"));
  fs::remove_all(dir);
}

TEST(Repl, TranscriptModeExitStatus) {
  {
    std::istringstream in("var %w : f32[2] = [1, 2]\n%y = add %w, %w\n");
    std::ostringstream out, err;
    EXPECT_EQ(runRepl({}, in, out, err), 0);
    EXPECT_EQ(out.str(), "%w: f32[2] = [1, 2]\n%y: f32[2] = [2, 4]  (preview: `run` computes it)\n");
    EXPECT_EQ(err.str(), "");
  }
  {
    std::istringstream in("%y = add %w, %w\nvar %w : f32[1] = 3\n:quit\n%z = nonsense\n");
    std::ostringstream out, err;
    EXPECT_EQ(runRepl({}, in, out, err), 1);
    EXPECT_EQ(out.str(), "%w: f32[1] = [3]\n");  // nothing after :quit runs
    EXPECT_TRUE(contains(err.str(), "<repl>:1:"));
  }
}

TEST(Repl, AStreamIsReadOnlyThroughHostLoadAsInAFile) {
  Session s;
  s.type("h2d $x : f32[2]\nvar %w : f32[2] = [1, 2]");
  s.takeErr();
  // No implicit `%x = host_load $x`: the REPL and a file are one language.
  EXPECT_EQ(s.type("%y = mul %x, %w"), "");
  EXPECT_TRUE(contains(s.takeErr(), "unknown value %x"));
  EXPECT_EQ(s.type("%x = host_load $x"), "%x: f32[2]\n");
  EXPECT_EQ(s.type("%y = mul %x, %w"), "%y: f32[2]\n");
}

TEST(Repl, APreviewedValueSaysPrintNeedsARun) {
  Session s;
  EXPECT_EQ(s.type("var %w : f32[2] = [1, 2]"), "%w: f32[2] = [1, 2]\n");
  EXPECT_EQ(s.type("const %c : f32[2] = [3, 4]"), "%c: f32[2] = [3, 4]\n");
  EXPECT_EQ(s.type("%b = mul %w, 3"), "%b: f32[2] = [3, 6]  (preview: `run` computes it)\n");
  EXPECT_EQ(s.type("print %w, %c"), "%w: f32[2] = [1, 2]\n%c: f32[2] = [3, 4]\n");
  EXPECT_EQ(s.type("print %b"), "");
  EXPECT_TRUE(contains(s.takeErr(), "%b has no value yet: `run` computes it"));
  EXPECT_EQ(s.type("run"), "");
  EXPECT_EQ(s.type("print %b"), "%b: f32[2] = [3, 6]\n");
}

TEST(Repl, APreviewHasABudgetOfItsOwn) {
  // The session is unbounded; the preview of a 2^62-iteration repeat stops at its
  // own step budget, says so, and the definition stays.
  std::ostringstream out, err;
  Repl repl(out, err, {}, PreviewBudget{.maxSteps = 1000});
  repl.feedLine("graph @b(%x: f32[]) -> (f32[]) {\n  %y = add %x, 1.0\n  return %y\n}");
  out.str({});
  err.str({});
  repl.feedLine("%r = repeat @b(5.0) {count = 4611686018427387904}");
  EXPECT_EQ(out.str(), "%r: f32[]  (not previewed: it takes more than 1000 steps)\n");
  EXPECT_EQ(err.str(), "");
  out.str({});
  repl.feedLine("%s = add %r, 1.0");
  EXPECT_EQ(out.str(), "%s: f32[]  (not previewed: %r was not previewed)\n");
  // A small repeat fits the budget; the session's own budget is not spent by previews.
  out.str({});
  repl.feedLine("%t = repeat @b(5.0) {count = 3}");
  EXPECT_EQ(out.str(), "%t: f32[] = 8  (preview: `run` computes it)\n");
  EXPECT_FALSE(repl.anyInputFailed());
}

TEST(Repl, APreviewHasAMemoryBudgetOfItsOwn) {
  std::ostringstream out, err;
  Repl repl(out, err, {}, PreviewBudget{.maxBytes = 1 << 20});
  repl.feedLine("const %one : f32[] = 1\n%z = broadcast %one {shape = [1024, 1024]}");
  EXPECT_EQ(out.str(), "%one: f32[] = 1\n%z: f32[1024,1024]  (not previewed: it needs more than 1 MiB of host memory)\n");
  EXPECT_FALSE(repl.anyInputFailed());
}
