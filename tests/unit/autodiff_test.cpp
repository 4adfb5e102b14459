// The autodiff transform as a library call (passes/autodiff.h): the rule table
// matches the op table, the result verifies, a failure reports and returns
// false, and a checkpoint rollback undoes everything the transform changed
// (the REPL's all-or-nothing inputs).
#include <gtest/gtest.h>

#include <sstream>

#include "frontend/builder.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/autodiff.h"
#include "passes/grad_rules.h"

namespace pir {
namespace {

struct Fixture {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::ostringstream err;
  Module module;

  explicit Fixture(const std::string& text) {
    diags.setStream(&err);
    uint32_t id = sources.add("test.pir", text);
    ok = buildFromBuffer(module, diags, id, ".").succeeded();
  }
  bool ok = false;
};

const char* kForward =
    "graph @inner(%a: f32[3], %w: f32[3]) -> (f32[3]) {\n"
    "  %m = mul %a, %w\n"
    "  %t = tanh %m\n"
    "  return %t\n"
    "}\n"
    "graph @f(%x: f32[3], %w: f32[3], %n: i32[3]) -> (f32[]) {\n"
    "  %h = call @inner(%x, %w)\n"
    "  %s = sum %h\n"
    "  return %s\n"
    "}\n"
    "main {\n"
    "  const %x : f32[3] = [1, 2, 3]\n"
    "  const %w : f32[3] = [0.5, -1, 2]\n"
    "  const %n : i32[3] = [1, 2, 3]\n"
    "  %s = call @f(%x, %w, %n)\n"
    "}\n";

TEST(Autodiff, EveryDifferentiableOpHasARuleAndNoOtherOpDoes) {
  for (int i = 0; i < kNumOpCodes; ++i) {
    const OpCode code = static_cast<OpCode>(i);
    EXPECT_EQ(ad::gradRule(code) != nullptr, opInfo(code).grad == GradKind::Diff) << opName(code);
  }
}

TEST(Autodiff, ResultVerifiesWithCalleeDifferentiatedFirst) {
  Fixture fx(kForward);
  ASSERT_TRUE(fx.ok) << fx.err.str();
  ASSERT_TRUE(autodiff(fx.module, *fx.module.findGraph("f"), "f_grad", {}, {}, fx.diags)) << fx.err.str();
  EXPECT_TRUE(verifyModule(fx.module, fx.diags)) << fx.err.str();
  Graph* grad = fx.module.findGraph("f_grad");
  Graph* innerGrad = fx.module.findGraph("inner_grad");
  ASSERT_TRUE(grad && innerGrad);
  EXPECT_LT(innerGrad->index, grad->index);  // callees before callers
  EXPECT_EQ(grad->gradOf, fx.module.findGraph("f"));
  // Default grads_required: the float inputs a gradient reaches (%x, %w; not the i32 %n).
  EXPECT_EQ(grad->outputTypes.size(), 2u);
  EXPECT_EQ(grad->params[0]->name, "grad.s");
  // The main graph's call of @f got a result for each stitched activation.
  const Op& call = *fx.module.main->ops.back();
  EXPECT_EQ(call.results.size(), fx.module.findGraph("f")->outputTypes.size());
}

TEST(Autodiff, ErrorsReportAndReturnFalse) {
  Fixture fx(kForward);
  ASSERT_TRUE(fx.ok);
  AttrDict attrs;
  Attr list = Attr::list({});
  Attr name;
  name.kind = Attr::Kind::Value;
  name.s = "n";
  list.items.push_back(name);
  attrs.set("grads_required", list);
  EXPECT_FALSE(autodiff(fx.module, *fx.module.findGraph("f"), "f_grad", attrs, {}, fx.diags));
  EXPECT_NE(fx.err.str().find("grads_required: %n is i32[3], not a float tensor"), std::string::npos) << fx.err.str();
}

// A call chain D deep: the callees are differentiated first, one level of
// recursion each, so a deep chain runs on a large stack (ir/stack.h) and in time
// linear in D (each copy that takes new outputs is placed after its original in
// one reorder; only the directive's graph has its callers scanned). Each level's
// copy sits right after its original, before its callers; rollback undoes it all.
TEST(Autodiff, ADeepCallChainIsDifferentiatedInOrder) {
  const int depth = 30000;  // overflowed the main thread's 8 MB stack before
  std::string text = "graph @g0(%x: f32[]) -> (f32[]) {\n  %y = mul %x, %x\n  return %y\n}\n";
  for (int i = 1; i < depth; ++i)
    text += "graph @g" + std::to_string(i) + "(%x: f32[]) -> (f32[]) {\n  %k = mul %x, 1\n  %y = call @g" +
            std::to_string(i - 1) + "(%k)\n  return %y\n}\n";
  Fixture fx(text);
  ASSERT_TRUE(fx.ok) << fx.err.str();
  const std::string before = printModule(fx.module);
  Module::Checkpoint cp = fx.module.checkpoint();
  Graph& top = *fx.module.findGraph("g" + std::to_string(depth - 1));
  ASSERT_TRUE(autodiff(fx.module, top, "grad", {}, {}, fx.diags)) << fx.err.str();
  EXPECT_TRUE(verifyModule(fx.module, fx.diags)) << fx.err.str();
  for (int i : {1, 2, depth / 2, depth - 2}) {  // @g0's activation is its input: no copy
    const Graph* original = fx.module.findGraph("g" + std::to_string(i));
    const Graph* copy = fx.module.findGraph("g" + std::to_string(i) + "_fwd");
    ASSERT_TRUE(original && copy) << i;
    EXPECT_EQ(copy->index, original->index + 1) << i;
    EXPECT_EQ(copy->outputTypes.size(), 2u) << i;  // its activation is an output now
  }
  EXPECT_EQ(top.outputTypes.size(), 2u);
  fx.module.rollback(cp);
  EXPECT_EQ(printModule(fx.module), before);
}

TEST(Autodiff, RollbackRestoresTheModuleExactly) {
  Fixture fx(kForward);
  ASSERT_TRUE(fx.ok);
  const std::string before = printModule(fx.module);
  Module::Checkpoint cp = fx.module.checkpoint();
  ASSERT_TRUE(autodiff(fx.module, *fx.module.findGraph("f"), "f_grad", {}, {}, fx.diags)) << fx.err.str();
  EXPECT_NE(printModule(fx.module), before);
  fx.module.rollback(cp);
  EXPECT_EQ(printModule(fx.module), before);
  EXPECT_TRUE(verifyModule(fx.module, fx.diags)) << fx.err.str();
}

}  // namespace
}  // namespace pir
