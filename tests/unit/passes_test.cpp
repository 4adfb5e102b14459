// The passes (passes/passes.h) in-process: what each one may and may not touch,
// idempotence, and that Module::rollback undoes every pass exactly (the REPL's
// undo). Printed results with and without passes are compared by the goldens
// (tests/lit/passes) and by tests/passes_same_output.sh.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "frontend/builder.h"
#include "ir/evaluator.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/passes.h"
#include "vm/const_eval.h"

namespace pir::passes {
namespace {

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
  // The main values the script's commands read (PassContext::mainNamesRead): none.
  std::set<std::string> namesRead;
  bool run(std::string_view pipelineText, const ConstantEvaluator* evaluator = nullptr) {
    std::string error;
    auto pipeline = parsePipeline(pipelineText, error);
    EXPECT_TRUE(pipeline) << error;
    PipelineOptions options;
    options.verifyEach = true;
    options.evaluator = evaluator;
    options.mainNamesRead = &namesRead;
    return runPipeline(module, *pipeline, diags, options).succeeded();
  }
  std::string text() const { return printModule(module); }
};

// Something for every pass to do: calls (by value, by reference, nested), dead
// code, foldable constants, a sum of four contributions, a matmul over a
// transpose (fold-transposes), a broadcast an elementwise op reads (fold-broadcasts),
// an update by a matmul's product (fuse-matmul-updates), a square (reduce-powers) and two consecutive transfers
// (merge-exchange, registered where api/ is linked).
const char* kProgram = R"(
h2d $x : f32[2]
d2h $y : f32[2]
d2h $z : f32[2]
graph @inc(%t: f32[2]) -> (f32[2]) {
  %u = add_ %t, 1
  return %u
}
graph @acc(%w: &f32[2], %g: f32[2]) -> () {
  accumulate_ %w, %g
  return
}
graph @sgd(%v: &f32[2,2], %q: f32[2,2]) -> () {
  %p = matmul %q, %q
  scaled_add_ %v, %p {b = -0.5}
  return
}
graph @scale(%r: f32[2], %m: f32[2,2]) -> (f32[2,2]) {
  %rb = broadcast %r {shape = [2, 2]}
  %o = mul %rb, %m
  %o2 = pow %o, 2
  return %o2
}
graph @grad(%d: f32[2], %x: f32[2]) -> (f32[2]) {
  %p1 = mul %d, %x
  %p2 = exp %d
  %dead = sin %x
  %p3 = neg %d
  %p4 = call @inc(%d)
  %s1 = add %p1, %p2
  %s2 = add %s1, %p3
  %s = add %s2, %p4
  return %s
}
main {
  var %w : f32[2] = [1, 2]
  const %a : f32[2] = [3, 4]
  %c = mul %a, 2
  %x = host_load $x
  %g = call @grad(%x, %c)
  call @acc(%w, %g)
  exp %x
  const %q : f32[2,2] = [[1, 2], [3, 4]]
  %qt = transpose %q
  %qm = matmul %qt, %q
  var %v : f32[2,2] = [[1, 0], [0, 1]]
  call @sgd(%v, %q)
  %sc = call @scale(%c, %q)
  host_store $y, %g
  host_store $z, %c
}
)";

const vm::KernelEvaluator kEvaluator;

TEST(Passes, EveryPassIsUndoneExactlyByRollback) {
  for (const PassInfo& pass : registeredPasses()) {
    Built b(kProgram);
    const std::string before = b.text();
    Module::Checkpoint cp = b.module.checkpoint();
    const uint64_t generation = b.module.generation;
    ASSERT_TRUE(b.run(pass.name, &kEvaluator)) << pass.name << ": " << b.err.str();
    EXPECT_NE(b.module.generation, generation) << pass.name << " changed nothing on a program made for it";
    EXPECT_NE(b.text(), before) << pass.name;
    b.module.rollback(cp);
    EXPECT_EQ(b.text(), before) << pass.name;
    EXPECT_TRUE(verifyModule(b.module, b.diags)) << pass.name << ": " << b.err.str();
  }
}

TEST(Passes, EveryPassIsIdempotent) {
  for (const PassInfo& pass : registeredPasses()) {
    Built b(kProgram);
    ASSERT_TRUE(b.run(pass.name, &kEvaluator)) << b.err.str();
    const std::string once = b.text();
    ASSERT_TRUE(b.run(pass.name, &kEvaluator)) << b.err.str();
    EXPECT_EQ(b.text(), once) << pass.name;
  }
}

TEST(Passes, TheFullPipelineLeavesOnlyWhatMatters) {
  Built b(kProgram);
  ASSERT_TRUE(b.run("inline,fold-constants,decompose-sum,dce", &kEvaluator)) << b.err.str();
  const std::string text = b.text();
  EXPECT_EQ(b.module.graphs.size(), 0u) << text;                           // every callee inlined and erased
  EXPECT_EQ(text.find("sin"), std::string::npos) << text;                  // dead
  EXPECT_NE(text.find("const %c : f32[2] = [6, 8]"), std::string::npos) << text;  // folded, name kept
  EXPECT_NE(text.find("accumulate_ %w, %g"), std::string::npos) << text;  // by-reference write to a var
  EXPECT_NE(text.find("host_store $y, %g"), std::string::npos) << text;
}

// An evaluator that records what it is asked and refuses everything.
class RecordingEvaluator final : public ConstantEvaluator {
 public:
  mutable std::set<OpCode> asked;
  bool evaluate(const Op& op, std::span<const ConstTensor>, std::vector<ConstTensor>&) const override {
    asked.insert(op.code);
    return false;
  }
};

TEST(Passes, FoldConstantsAsksOnlyAboutPureOpsOfConstants) {
  Built c(R"(
const %s : u32[2] = [1, 2]
const %a : f32[2] = [1, 2]
%r = random_uniform %s {shape = [2]}
%p = print_tensor %a
%n = neg %a
%copy = identity %a
add_ %copy, 1
)");
  RecordingEvaluator recorder;
  const std::string before = c.text();
  ASSERT_TRUE(c.run("fold-constants", &recorder)) << c.err.str();
  EXPECT_EQ(recorder.asked, std::set<OpCode>{OpCode::Neg});  // not random, print_tensor, in place, or a written copy
  EXPECT_EQ(c.text(), before);                               // refused: nothing changes
}

TEST(Passes, FoldConstantsWithoutAnEvaluatorChangesNothing) {
  Built b("const %a : f32[2] = [1, 2]\n%n = neg %a\n");
  const uint64_t generation = b.module.generation;
  ASSERT_TRUE(b.run("fold-constants", nullptr));
  EXPECT_EQ(b.module.generation, generation);
}

TEST(Passes, DceKeepsWhatASessionCanSee) {
  Built b(R"(
var %w : f32[2] = [1, 2]
const %k : f32[2] = 3
%named = neg %w
neg %w
%t = exp %w
relu_ %t
add_ %w, 1
)");
  ASSERT_TRUE(b.run("dce"));
  const std::string text = b.text();
  EXPECT_NE(text.find("const %k"), std::string::npos) << text;      // named in main: printable
  EXPECT_NE(text.find("%named = neg %w"), std::string::npos) << text;
  EXPECT_NE(text.find("%t = exp %w"), std::string::npos) << text;   // named, and written in place
  EXPECT_NE(text.find("relu_ %t"), std::string::npos) << text;
  EXPECT_NE(text.find("add_ %w, 1"), std::string::npos) << text;    // a variable's update
  EXPECT_EQ(text.find("neg %w"), text.rfind("neg %w")) << "the unnamed neg is gone: " << text;
}

// A generated name is a name a command can print (`print %0`): dce keeps the
// main values the script reads, generated or not, and, when the reads are not
// known (the REPL, where any later input may print any value), every main value.
TEST(Passes, DceKeepsGeneratedNamesASessionReads) {
  const char* program = "var %w : f32[2] = [1, 2]\nadd %w, %w\nneg %w\n";
  Built read(program);
  read.namesRead = {"0"};
  ASSERT_TRUE(read.run("dce"));
  EXPECT_NE(read.text().find("%0 = add %w, %w"), std::string::npos) << read.text();
  EXPECT_EQ(read.text().find("neg %w"), std::string::npos) << read.text();

  Built unknown(program);
  std::string error;
  auto pipeline = parsePipeline("dce", error);
  ASSERT_TRUE(pipeline) << error;
  ASSERT_TRUE(runPipeline(unknown.module, *pipeline, unknown.diags, PipelineOptions{}));
  EXPECT_NE(unknown.text().find("%0 = add %w, %w"), std::string::npos) << unknown.text();
  EXPECT_NE(unknown.text().find("%1 = neg %w"), std::string::npos) << unknown.text();
}

// A call chain D deep: inlining expands it into main once (each level's body is
// copied where it is called, never expanded on its own), the chain's graphs go,
// and the names the levels share get increasing suffixes (%k, %k.1, ...).
TEST(Passes, InlineExpandsADeepCallChainIntoMain) {
  const int depth = 20000;
  std::string text = "graph @g0(%x: f32[]) -> (f32[]) {\n  %y = add %x, 1\n  return %y\n}\n";
  for (int i = 1; i < depth; ++i)
    text += "graph @g" + std::to_string(i) + "(%x: f32[]) -> (f32[]) {\n  %k = mul %x, 2\n  %y = call @g" +
            std::to_string(i - 1) + "(%k)\n  return %y\n}\n";
  text += "%r = call @g" + std::to_string(depth - 1) + "(1)\n";
  Built b(text);
  ASSERT_TRUE(b.run("inline")) << b.err.str();
  EXPECT_EQ(b.module.graphs.size(), 0u);
  // A `const` for the literal 1, a mul per level, the add of @g0.
  ASSERT_EQ(b.module.main->ops.size(), static_cast<size_t>(1 + (depth - 1) + 1));
  const std::string out = b.text();
  EXPECT_NE(out.find("  %k = mul %x, 2 : f32[]\n  %k.1 = mul %k, 2 : f32[]\n  %k.2 = mul %k.1, 2 : f32[]\n"),
            std::string::npos)
      << out.substr(0, 300);
  EXPECT_NE(out.find("%k.19998 = mul %k.19997, 2 : f32[]\n  %r = add %k.19998, 1 : f32[]\n"), std::string::npos)
      << out.substr(out.size() - 300);
}

// What stays after inlining: main, a graph nothing calls, a repeat body (also
// called), and a forward graph while the gradient graph naming it stays; a graph
// only ever called goes, and so does a forward graph whose gradient graph went.
TEST(Passes, InlineErasesExactlyTheGraphsLeftWithoutReferences) {
  Built b(R"(
graph @leaf(%x: f32[]) -> (f32[]) {
  %y = add %x, 1
  return %y
}
graph @body(%x: f32[]) -> (f32[]) {
  %y = call @leaf(%x)
  return %y
}
graph @unused(%x: f32[]) -> (f32[]) {
  %y = neg %x
  return %y
}
graph @fwd(%x: f32[]) -> (f32[]) {
  %y = exp %x
  return %y
}
graph @fwd_grad(%d: f32[], %y: f32[]) -> (f32[]) attributes {grad_of = @fwd, activations = [%y]} {
  %g = mul %d, %y
  return %g
}
main {
  %a = call @body(1)
  %b = repeat @body(%a) {count = 2}
  %c = call @fwd(%b)
  %d = call @fwd_grad(%c, %c)
}
)");
  ASSERT_TRUE(b.run("inline")) << b.err.str();
  std::vector<std::string> names;
  for (const auto& g : b.module.graphs) names.push_back(g->name);
  EXPECT_EQ(names, (std::vector<std::string>{"body", "unused"})) << b.text();
  EXPECT_EQ(b.text().find("call @"), std::string::npos) << b.text();  // @body's own call is inlined too
}

// Inlining that would build more than 4,000,000 ops is refused at the call, and
// nothing changes: here each level calls the next twice (2^40 ops).
TEST(Passes, InlineRefusesAnExpansionBeyondItsLimit) {
  std::string text = "graph @g0(%x: f32[]) -> (f32[]) {\n  %y = add %x, 1\n  return %y\n}\n";
  for (int i = 1; i < 40; ++i)
    text += "graph @g" + std::to_string(i) + "(%x: f32[]) -> (f32[]) {\n  %a = call @g" + std::to_string(i - 1) +
            "(%x)\n  %b = call @g" + std::to_string(i - 1) + "(%a)\n  return %b\n}\n";
  text += "main {\n  %r = call @g39(1)\n}\n";
  Built b(text);
  const std::string before = b.text();
  EXPECT_FALSE(b.run("inline"));
  EXPECT_NE(b.err.str().find("t.pir:201:8: error: inline: inlining the calls of @main would make the module "),
            std::string::npos)
      << b.err.str();
  EXPECT_NE(b.err.str().find(" ops, more than the limit of 4000000"), std::string::npos) << b.err.str();
  EXPECT_EQ(b.text(), before);
}

// fuse-matmul-updates inlines a gradient-like call only within the inline pass's op
// limit: a callee that expands to 2^40 ops stays called (its update unfused), while
// the small one beside it is inlined and its update fused.
TEST(Passes, FuseMatMulUpdatesInlinesOnlyWithinTheOpLimit) {
  std::string text = "graph @c0(%x: f32[2,2]) -> (f32[2,2]) {\n  %y = add %x, 1\n  return %y\n}\n";
  for (int i = 1; i < 40; ++i)
    text += "graph @c" + std::to_string(i) + "(%x: f32[2,2]) -> (f32[2,2]) {\n  %a = call @c" + std::to_string(i - 1) +
            "(%x)\n  %b = call @c" + std::to_string(i - 1) + "(%a)\n  return %b\n}\n";
  text += R"(graph @big(%x: f32[2,2]) -> (f32[2,2]) {
  %a = call @c39(%x)
  %y = matmul %a, %a
  return %y
}
graph @small(%x: f32[2,2]) -> (f32[2,2]) {
  %y = matmul %x, %x
  return %y
}
graph @step(%x: f32[2,2], %W: &f32[2,2], %V: &f32[2,2]) -> () {
  %p = call @big(%x)
  scaled_add_ %W, %p {b = -1}
  %q = call @small(%x)
  scaled_add_ %V, %q {b = -1}
  return
}
main {
  var %W : f32[2,2] = 0
  var %V : f32[2,2] = 0
  const %x : f32[2,2] = [[1, 2], [3, 4]]
  call @step(%x, %W, %V)
}
)";
  Built b(text);
  ASSERT_TRUE(b.run("fuse-matmul-updates")) << b.err.str();
  const std::string out = b.text();
  const size_t step = out.find("graph @step(");
  ASSERT_NE(step, std::string::npos);
  const std::string body = out.substr(step, out.find("\n}\n", step) - step);
  EXPECT_NE(body.find("%p = call @big(%x)"), std::string::npos) << body;
  EXPECT_NE(body.find("scaled_add_ %W, %p {b = -1}"), std::string::npos) << body;
  EXPECT_EQ(body.find("call @small"), std::string::npos) << body;
  EXPECT_NE(body.find("matmul_scaled_add_ %x, %x, %V {alpha = -1}"), std::string::npos) << body;
}

// n matmuls followed by their n updates: each candidate scans its span, so the pass
// looks at about n^2 ops; past its scan budget (2^26 ops for the module) it leaves
// the remaining updates as written instead of taking quadratic time.
TEST(Passes, FuseMatMulUpdatesBoundsTheOpsItScans) {
  const int n = 12000;
  std::string text = "graph @g(%x: f32[2,2]";
  for (int i = 0; i < n; ++i) text += ", %W" + std::to_string(i) + ": &f32[2,2]";
  text += ") -> () {\n  %y = add %x, 0\n";
  for (int i = 0; i < n; ++i) text += "  %p" + std::to_string(i) + " = matmul %y, %y\n";
  for (int i = 0; i < n; ++i) text += "  scaled_add_ %W" + std::to_string(i) + ", %p" + std::to_string(i) + "\n";
  text += "  return\n}\n";
  Built b(text);
  ASSERT_TRUE(b.run("fuse-matmul-updates")) << b.err.str();
  const std::string out = b.text();
  size_t fused = 0;
  for (size_t at = out.find("matmul_scaled_add_"); at != std::string::npos; at = out.find("matmul_scaled_add_", at + 1))
    ++fused;
  EXPECT_GT(fused, 1000u);  // the budget covers thousands of these spans
  EXPECT_LT(fused, static_cast<size_t>(n));
}

}  // namespace
}  // namespace pir::passes
