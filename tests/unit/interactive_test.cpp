// The incremental session of the public API (include/pir/interactive.h):
// inputs all or nothing, echo with previews, undo, passes, reading, completion
// data, through the API alone.
#include "pir/interactive.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

namespace pir::api {
namespace {

struct Fixture {
  Context context;
  std::ostringstream out, err;
  Interactive session{context, out, err};
  uint32_t line = 1;

  bool type(const std::string& input) {
    const bool ok = session.evaluate(input, line);
    line += 1 + static_cast<uint32_t>(std::count(input.begin(), input.end(), '\n'));
    return ok;
  }
  std::string take(std::ostringstream& s) {
    std::string t = s.str();
    s.str({});
    return t;
  }
};

TEST(Interactive, EchoesDefinitionsWithPreviewsAndRunsCommands) {
  Fixture f;
  ASSERT_TRUE(f.type("var %w : f32[2] = [1, 2]"));
  EXPECT_EQ(f.take(f.out), "%w: f32[2] = [1, 2]\n");
  ASSERT_TRUE(f.type("%s = add %w, %w"));
  EXPECT_EQ(f.take(f.out), "%s: f32[2] = [2, 4]  (preview: `run` computes it)\n");
  ASSERT_TRUE(f.type("d2h $y : f32[2]\nhost_store $y, %s\nrun"));
  EXPECT_EQ(f.take(f.out), "$y: f32[2] = [2, 4]\n");
  ASSERT_TRUE(f.type("graph @g(%x: f32[2]) -> (f32[2]) {\n  %y = neg %x\n  return %y\n}"));
  EXPECT_EQ(f.take(f.out), "@g(f32[2]) -> (f32[2])\n");
  EXPECT_EQ(f.take(f.err), "");
}

TEST(Interactive, AFailedInputChangesNothingAndIsReportedLocated) {
  Fixture f;
  ASSERT_TRUE(f.type("const %c : f32[] = 1"));
  f.take(f.out);
  EXPECT_FALSE(f.type("%a = add %c, 1\n%b = add %nope, 1"));
  EXPECT_EQ(f.take(f.out), "");  // not even the echo of %a
  EXPECT_NE(f.take(f.err).find("<repl>:3:"), std::string::npos);
  EXPECT_FALSE(f.session.valueType("a"));
  EXPECT_TRUE(f.session.valueType("c"));
}

TEST(Interactive, UndoRemovesTheNewestChangeAndSaysWhich) {
  Fixture f;
  ASSERT_TRUE(f.type("var %w : f32[] = 1"));
  ASSERT_TRUE(f.type("%x = add %w, 1"));
  std::optional<std::string> undone = f.session.undo();
  ASSERT_TRUE(undone);
  EXPECT_EQ(*undone, "%x = add %w, 1");
  EXPECT_FALSE(f.session.valueType("x"));
  EXPECT_EQ(f.session.undo(), std::optional<std::string>("var %w : f32[] = 1"));
  EXPECT_FALSE(f.session.undo());
}

TEST(Interactive, PassesResetAndUndoOfThem) {
  Fixture f;
  ASSERT_TRUE(f.type("var %w : f32[] = 1\nconst %c : f32[] = 2\n%d = mul %c, 3\naccumulate_ %w, %d\nrun"));
  ASSERT_TRUE(f.session.runPasses({"fold-constants"}, ":passes fold-constants"));
  EXPECT_EQ(f.session.undo(), std::optional<std::string>(":passes fold-constants"));
  ASSERT_TRUE(f.session.reset());
  EXPECT_EQ(f.session.undo(), std::optional<std::string>(":reset"));
}

TEST(Interactive, ReadsTheProgramForCommandsAndCompletion) {
  Fixture f;
  ASSERT_TRUE(f.type("h2d $x : f32[3]\nremote_buffer $r : f32[3] {entries = 2}\n"
                     "graph @g(%a: f32[3], %b: &f32[]) -> (f32[3]) {\n  return %a\n}\nconst %c : f32[3] = 1"));
  ASSERT_TRUE(f.session.valueType("c"));
  EXPECT_EQ(f.session.valueType("c")->str(), "f32[3]");
  EXPECT_EQ(f.session.graphSignature("g"), std::optional<std::string>("@g(f32[3], &f32[]) -> (f32[3])"));
  EXPECT_TRUE(f.session.hasGraph("g"));
  EXPECT_FALSE(f.session.hasGraph("main"));
  EXPECT_EQ(f.session.graphNames(), std::vector<std::string>{"g"});
  EXPECT_EQ(f.session.valueNames(), std::vector<std::string>{"c"});
  EXPECT_EQ(f.session.resourceNames(), (std::vector<std::string>{"x", "r"}));
  std::optional<ResourceInfo> r = f.session.resource("r");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kind, ResourceInfo::Kind::RemoteBuffer);
  EXPECT_EQ(r->entries, 2);
  EXPECT_NE(f.session.print().find("const %c : f32[3]"), std::string::npos);
  EXPECT_NE(f.session.print("g").find("graph @g"), std::string::npos);
  EXPECT_NE(f.session.dot().find("digraph"), std::string::npos);
  EXPECT_TRUE(f.session.disassemble("main"));
}

TEST(Interactive, PreviewBudgetSkipsALongPreviewWithoutFailingTheInput) {
  Context context;
  std::ostringstream out, err;
  Interactive session(context, out, err, PreviewBudget{.maxSteps = 10});
  ASSERT_TRUE(session.evaluate("const %c : f32[1000] = 1\n%s = add %c, %c", 1));
  EXPECT_NE(out.str().find("%s: f32[1000]  (not previewed: it takes more than 10 steps)"), std::string::npos) << out.str();
  EXPECT_EQ(err.str(), "");
}

TEST(Interactive, ReportErrorLocatesInTheGivenLine) {
  Fixture f;
  f.session.reportError(":frob x", 7, 1, "unknown command ':frob'");
  EXPECT_EQ(f.take(f.err).rfind("<repl>:7:1: error: unknown command ':frob'", 0), 0u);
}

TEST(Interactive, ScannerAndValueNamesOfAnOpenInput) {
  InputScanner s;
  s.feed("graph @g(%a: f32[]) -> (f32[]) {");
  EXPECT_TRUE(s.needsMoreInput());
  s.feed("\n}");
  EXPECT_FALSE(s.needsMoreInput());
  EXPECT_EQ(s.charactersScanned(), 34u);
  std::vector<std::string> names;
  forEachValueName("%a = add %b, 1 # %c\n\"%d\"", [&](std::string_view n) { names.emplace_back(n); });
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace pir::api
