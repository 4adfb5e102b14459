// The pass manager (passes/pass_manager.h): pipeline parsing, the registry,
// --verify-each catching a pass that breaks the IR, --print-after-each.
#include <gtest/gtest.h>

#include <sstream>

#include "frontend/builder.h"
#include "passes/pass_manager.h"

namespace pir::passes {
namespace {

const char* kProgram =
    "h2d $x : f32[2]\n"
    "d2h $y : f32[2]\n"
    "%x = host_load $x\n"
    "%y = add %x, 1\n"
    "host_store $y, %y\n";

struct Built {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  Module module;
  std::ostringstream err;
  explicit Built(const std::string& text) {
    diags.setStream(&err);
    uint32_t id = sources.add("t.pir", text);
    EXPECT_TRUE(buildFromBuffer(module, diags, id, "")) << err.str();
  }
};

TEST(PassManager, EmptyPipelines) {
  std::string error;
  for (const char* text : {"", ",", " , ,"}) {
    auto p = parsePipeline(text, error);
    ASSERT_TRUE(p) << text;
    EXPECT_TRUE(p->empty()) << text;
  }
}

TEST(PassManager, EveryRegisteredPassParsesByName) {
  for (const PassInfo& pass : registeredPasses()) {
    std::string error;
    auto p = parsePipeline(" " + std::string(pass.name) + " ,", error);
    ASSERT_TRUE(p) << error;
    ASSERT_EQ(p->size(), 1u);
    EXPECT_EQ((*p)[0], &pass);
    EXPECT_EQ(findPass(pass.name), &pass);
    EXPECT_FALSE(pass.summary.empty());
  }
}

TEST(PassManager, RegistryIsSortedAndUnique) {
  auto passes = registeredPasses();
  for (size_t i = 1; i < passes.size(); ++i) EXPECT_LT(passes[i - 1].name, passes[i].name);
}

TEST(PassManager, UnknownPassNamesTheListAndAvailablePasses) {
  std::string error;
  EXPECT_FALSE(parsePipeline("no-such-pass", error));
  EXPECT_EQ(error.rfind("unknown pass 'no-such-pass'", 0), 0u) << error;
  EXPECT_NE(error.find("available passes: " + passListText()), std::string::npos) << error;
  EXPECT_EQ(error.find("did you mean"), std::string::npos) << "nothing is close: " << error;
}

TEST(PassManager, MisspelledPassSuggestsTheClosestName) {
  for (const PassInfo& pass : registeredPasses()) {
    std::string typo(pass.name);
    typo.back() = typo.back() == 'x' ? 'y' : 'x';  // one substitution
    std::string error;
    EXPECT_FALSE(parsePipeline(typo, error));
    EXPECT_NE(error.find("(did you mean '" + std::string(pass.name) + "'?)"), std::string::npos) << error;
  }
}

// A pass that breaks the IR: the add's recorded result type no longer matches
// what its operands infer.
LogicalResult breakTheIR(Module& m, PassContext&) {
  for (auto& op : m.main->ops)
    if (op->code == OpCode::Add) op->results[0]->type = TensorType{op->results[0]->type->dtype, {3}};
  return success();
}
LogicalResult doNothing(Module&, PassContext&) { return success(); }
LogicalResult failWithADiagnostic(Module&, PassContext& ctx) { ctx.diags.fail({}, "the pass refused"); }

TEST(PassManager, VerifyEachReportsAPassThatLeavesInvalidIR) {
  Built b(kProgram);
  const PassInfo bad{"break-it", "breaks the IR", &breakTheIR};
  const PassInfo* pipeline[] = {&bad};
  PipelineOptions options;
  options.verifyEach = true;
  EXPECT_FALSE(runPipeline(b.module, pipeline, b.diags, options));
  EXPECT_NE(b.err.str().find("error: internal: pass 'break-it' produced invalid IR: add: "), std::string::npos)
      << b.err.str();
  // The located diagnostic points at the op.
  EXPECT_NE(b.err.str().find("t.pir:4:6: error: internal"), std::string::npos) << b.err.str();
}

TEST(PassManager, StopsAtTheFirstFailingPass) {
  Built b(kProgram);
  int ran = 0;
  static int* counter = nullptr;
  counter = &ran;
  const PassInfo count{"count", "counts", [](Module&, PassContext&) { return ++*counter, success(); }};
  const PassInfo fail{"fail", "fails", &failWithADiagnostic};
  const PassInfo* pipeline[] = {&count, &fail, &count};
  EXPECT_FALSE(runPipeline(b.module, pipeline, b.diags));
  EXPECT_EQ(ran, 1);
  EXPECT_NE(b.err.str().find("the pass refused"), std::string::npos);
}

TEST(PassManager, PrintAfterEachPrintsAHeaderAndTheIRPerPass) {
  Built b(kProgram);
  const PassInfo nop{"nop", "nothing", &doNothing};
  const PassInfo* pipeline[] = {&nop, &nop};
  std::ostringstream printed;
  PipelineOptions options;
  options.printAfterEach = &printed;
  ASSERT_TRUE(runPipeline(b.module, pipeline, b.diags, options));
  std::string text = printed.str();
  size_t first = text.find("# -- after nop --\n");
  ASSERT_EQ(first, 0u) << text;
  size_t second = text.find("# -- after nop --\n", first + 1);
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_NE(text.find("%y = add %x, 1"), std::string::npos) << text;
  // Both sections are the same canonical text.
  EXPECT_EQ(text.substr(0, second), text.substr(second));
}

}  // namespace
}  // namespace pir::passes
