// The IR builder (frontend/builder.h) through the parser: every language rule
// with the diagnostic text and location it produces.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "frontend/builder.h"
#include "ir/verifier.h"
#include "tests/unit/spec_examples.h"

namespace pir {
namespace {

struct RecordingListener : BuildListener {
  std::vector<std::string> events;
  void valueDefined(const Value& v) override { events.push_back("value %" + v.name + ": " + v.type->str()); }
  void graphDefined(const Graph& g) override { events.push_back("graph @" + g.name); }
  void resourceDefined(const Resource& r) override { events.push_back("resource $" + r.name); }
};

class BuilderTest : public ::testing::Test {
 protected:
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module module;
  RecordingListener listener;
  Script script;
  std::string baseDir;

  bool build(const std::string& text) {
    uint32_t file = sm.add("t.pir", text);
    return buildFromBuffer(module, diags, file, baseDir, &script, {.listener = &listener}).succeeded();
  }
  // "LINE:COL: message" of the first error, or "" if none.
  std::string error() const {
    for (auto& d : diags.all())
      if (d.severity == Severity::Error)
        return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
    return "";
  }
  const Diagnostic* firstError() const {
    for (auto& d : diags.all())
      if (d.severity == Severity::Error) return &d;
    return nullptr;
  }
  std::string note(size_t i = 0) const {
    const Diagnostic* d = firstError();
    if (!d || d->notes.size() <= i) return "";
    return std::to_string(d->notes[i].loc.line) + ":" + std::to_string(d->notes[i].loc.col) + ": " + d->notes[i].message;
  }
  // Builds `text`, expects failure, returns the located first error.
  std::string fails(const std::string& text) {
    EXPECT_FALSE(build(text)) << text;
    return error();
  }
};

TEST_F(BuilderTest, LinearProgramBuildsAndVerifies) {
  ASSERT_TRUE(build(test::kLanguageExample)) << error();
  ASSERT_EQ(module.graphs.size(), 1u);
  const Graph& g = *module.graphs[0];
  EXPECT_EQ(g.outputTypes, (std::vector<TensorType>{{DType::F32, {2, 2}}}));
  EXPECT_EQ(module.main->ops.size(), 5u);
  EXPECT_EQ(script.size(), 3u);
  for (size_t i = 0; i < module.main->values.size(); ++i) EXPECT_EQ(module.main->values[i]->id, i);
  EXPECT_TRUE(verifyModule(module, diags));
  EXPECT_EQ(listener.events[0], "resource $x");
  EXPECT_EQ(listener.events[2], "graph @linear");
  EXPECT_EQ(listener.events[3], "value %W: f32[3,2]");
  EXPECT_EQ(listener.events.back(), "value %y: f32[2,2]");
  // Commands are not events: the script has them, each with the program it sees.
  EXPECT_EQ(script.back().command.kind, SessionCommand::Kind::Print);
  EXPECT_EQ(script.back().point.mainOps, 5u);
}

TEST_F(BuilderTest, BroadcastErrorMatchesToolsExample) {
  EXPECT_EQ(fails("const %x : f32[2,3] = 0\nconst %b : f32[4] = 1\n%y = add %x, %b\n"),
            "3:14: add: operand types f32[2,3] and f32[4] do not broadcast");
  EXPECT_EQ(note(), "2:7: %b is declared here");
  EXPECT_EQ(diags.format(*firstError()),
            "t.pir:3:14: error: add: operand types f32[2,3] and f32[4] do not broadcast\n"
            "  %y = add %x, %b\n"
            "               ^\n"
            "t.pir:2:7: note: %b is declared here\n");
}

TEST_F(BuilderTest, IrOptions) {
  EXPECT_EQ(fails("ir {replication = 0}"), "1:19: ir: replication = 0 is out of range [1, 65536]");
  diags.clear();
  EXPECT_EQ(fails("ir {colour = 1}").substr(0, 30), "1:5: ir: unknown option 'colou");
}

TEST_F(BuilderTest, IrOptionsMustComeFirstAndOnce) {
  EXPECT_EQ(fails("h2d $x : f32[2]\nir {replication = 2}"), "2:1: ir: `ir {...}` must come before any other item");
  diags.clear();
  Module fresh;
  uint32_t f = sm.add("t.pir", "ir {replication = 2}\nir {seed = 1}");
  EXPECT_FALSE(buildFromBuffer(fresh, diags, f, ""));
  EXPECT_EQ(error(), "2:1: ir: options may be set only once");
  EXPECT_EQ(note(), "1:1: the options are first set here");
  EXPECT_EQ(fresh.options.replication, 2);
}

TEST_F(BuilderTest, UndeclaredNames) {
  EXPECT_EQ(fails("%y = add %x, 1"), "1:10: add: unknown value %x");
  diags.clear();
  EXPECT_EQ(fails("%y = host_load $x"), "1:16: host_load: unknown stream or remote buffer $x");
  diags.clear();
  EXPECT_EQ(fails("%y = call @g()"), "1:11: call: unknown graph @g");
  diags.clear();
  EXPECT_EQ(fails("%y = frobnicate"), "1:6: unknown op 'frobnicate'");
}

TEST_F(BuilderTest, RedefinitionPointsAtBothPlaces) {
  EXPECT_EQ(fails("const %a : f32[] = 1\n%a = add %a, %a"), "2:1: redefinition of %a");
  EXPECT_EQ(note(), "1:7: %a is first defined here");
  diags.clear();
  EXPECT_EQ(fails("h2d $s : f32[]\nd2h $s : f32[]"), "2:5: redefinition of $s");
  EXPECT_EQ(note(), "1:5: $s is first defined here");
  diags.clear();
  EXPECT_EQ(fails("graph @g() { return }\ngraph @g() { return }"), "2:7: redefinition of @g");
  EXPECT_EQ(note(), "1:7: @g is first defined here");
}

TEST_F(BuilderTest, SameNameInDifferentGraphsIsFine) {
  EXPECT_TRUE(build("const %a : f32[] = 1\ngraph @g(%a: f32[]) { return %a }\n%b = call @g(%a)")) << error();
}

TEST_F(BuilderTest, VarOnlyInMain) {
  EXPECT_EQ(fails("graph @g() {\n  var %w : f32[] = 1\n  return\n}"),
            "2:3: var: variables are declared in the main graph only; pass %w to @g as an argument");
}

TEST_F(BuilderTest, LiteralDataShapesAndRanges) {
  EXPECT_TRUE(build("const %a : f32[2,2] = 3\nconst %b : i32[2] = [1, 2]\nconst %c : bool[2] = [true, false]"))
      << error();
  EXPECT_EQ(fails("const %d : f32[2,2] = [1, 2]"), "1:23: const %d: data of shape [2] does not match f32[2,2]");
  diags.clear();
  EXPECT_EQ(fails("const %e : f32[2] = [true, false]"), "1:21: const %e: true/false is only valid for bool data, not f32[2]");
  diags.clear();
  EXPECT_EQ(fails("const %f : u8[] = 256"), "1:19: const %f: value 256 is out of range for u8");
  diags.clear();
  EXPECT_EQ(fails("const %g : i32[] = 1.5"), "1:20: const %g: value 1.5 is not an integer (i32)");
}

TEST_F(BuilderTest, I64WarnsOncePerDeclaration) {
  ASSERT_TRUE(build("const %a : i64[2] = [1, 2]\nh2d $s : u64[]")) << error();
  EXPECT_EQ(module.main->values[0]->type->dtype, DType::I32);
  ASSERT_EQ(diags.warningCount(), 2);
  EXPECT_EQ(diags.all()[0].message, "i64 is stored as i32 (PopXL downcast)");
  EXPECT_EQ(diags.all()[0].loc.line, 1u);
  EXPECT_EQ(diags.all()[1].message, "u64 is stored as u32 (PopXL downcast)");
  EXPECT_EQ(fails("const %b : i64[] = 3000000000"), "1:20: const %b: value 3000000000 is out of range for i32");
}

// Every integer dtype accepts its extremes and rejects one beyond, quoting the value
// as written, also where a double would round it (2^53 + 1, 2^63 - 1, 2^64 - 1).
TEST_F(BuilderTest, IntegerLiteralExtremesAreExactInEveryIntegerDType) {
  struct Range {
    const char* dtype;
    const char* stored;
    const char *min, *max, *below, *above;
  };
  const Range ranges[] = {
      {"i8", "i8", "-128", "127", "-129", "128"},
      {"i16", "i16", "-32768", "32767", "-32769", "32768"},
      {"i32", "i32", "-2147483648", "2147483647", "-2147483649", "2147483648"},
      {"i64", "i32", "-2147483648", "2147483647", "-9223372036854775809", "9223372036854775807"},
      {"u8", "u8", "0", "255", "-1", "256"},
      {"u16", "u16", "0", "65535", "-1", "65536"},
      {"u32", "u32", "0", "4294967295", "-1", "4294967296"},
      {"u64", "u32", "0", "4294967295", "-1", "18446744073709551615"},
  };
  int n = 0;
  for (const Range& r : ranges) {
    SCOPED_TRACE(r.dtype);
    diags.clear();
    const std::string a = "%a" + std::to_string(++n);
    EXPECT_TRUE(build("const " + a + " : " + r.dtype + "[2] = [" + r.min + ", " + r.max + "]")) << error();
    for (const char* beyond : {r.below, r.above}) {
      diags.clear();
      const std::string b = "%b" + std::to_string(++n);
      const std::string text = "const " + b + " : " + r.dtype + "[2] = [0, " + beyond + "]";
      EXPECT_EQ(fails(text), "1:" + std::to_string(text.find("= [") + 3) + ": const " + b + ": value " + beyond +
                                 " is out of range for " + r.stored);
    }
  }
  for (const char* wide : {"9007199254740993", "-9007199254740993", "18446744073709551615", "99999999999999999999"}) {
    diags.clear();
    const std::string c = "%c" + std::to_string(++n);
    const std::string text = "const " + c + " : u32[] = " + wide;
    EXPECT_EQ(fails(text), "1:" + std::to_string(text.find("= ") + 3) + ": const " + c + ": value " + wide +
                               " is out of range for u32");
  }
}

TEST_F(BuilderTest, GeneratorsOnlyOnVar) {
  EXPECT_TRUE(build("var %w : f32[3] = uniform(-1, 1, 7)\nvar %z : f32[3] = zeros")) << error();
  // The grammar already rejects this; the builder checks it for other producers of ast.
  Builder builder(module, diags, "");
  ast::DeclStmt decl;
  decl.isConst = true;
  decl.name.text = "c";
  decl.type.shape = {3};
  decl.init = std::make_shared<Literal>();
  decl.init->kind = Literal::Kind::Normal;
  decl.init->args = {0, 1, 1};
  decl.loc = decl.init->loc = SourceLoc{1, 1, 21};
  EXPECT_THROW(builder.statement(std::move(decl)), CompileError);
  EXPECT_EQ(error(), "1:21: const %c: generators (uniform, normal, zeros, ones) are only for var");
}

TEST_F(BuilderTest, LoadResolvesAgainstBaseDirAndMustExist) {
  auto dir = std::filesystem::temp_directory_path() / "pir_builder_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "w.npy") << "x";
  baseDir = dir.string();
  ASSERT_TRUE(build("const %w : f32[2] = load(\"w.npy\")")) << error();
  EXPECT_EQ(module.main->ops[0]->init()->resolvedPath, (dir / "w.npy").string());
  EXPECT_EQ(fails("const %v : f32[2] = load(\"missing.npy\")"), "1:21: const %v: cannot open \"missing.npy\"");
}

TEST_F(BuilderTest, VarAttributes) {
  EXPECT_EQ(fails("ir {replication = 8}\nvar %w : f32[2] = 0 {replica_grouping = (2, 2)}"),
            "2:41: var %w: replica grouping (2, 2) is not valid for 8 replicas: with stride > 1, stride * group_size must equal the replica count");
  diags.clear();
  Module m2;
  uint32_t f = sm.add("t.pir", "ir {replication = 4}\nvar %w : f32[2] = [[1, 2], [3, 4]] {replica_grouping = (1, 2)}");
  EXPECT_TRUE(buildFromBuffer(m2, diags, f, "")) << error();
  diags.clear();
  EXPECT_EQ(fails("var %w : f32[2] = 0 {colour = 1}"), "1:22: var %w: unknown attribute 'colour'");
  diags.clear();
  EXPECT_EQ(fails("var %w : f32[2] = 0 {retrieval = some}"),
            "1:34: var %w: attribute 'retrieval' must be one of one_per_group, all_replicas");
}

TEST_F(BuilderTest, RemoteVariables) {
  EXPECT_TRUE(build("remote_buffer $rb : f32[2] {entries = 2}\nvar %w : f32[2] = 0 {remote = $rb, offset = 1}"))
      << error();
  EXPECT_EQ(fails("var %v : f32[2] = 0 {remote = $rb, offset = 2}"),
            "1:45: var %v: offset 2 is out of range: $rb has 2 entries");
  diags.clear();
  EXPECT_EQ(fails("var %u : f32[3] = 0 {remote = $rb}"),
            "1:31: var %u: type f32[3] does not match remote buffer $rb : f32[2]");
}

TEST_F(BuilderTest, GraphReturnRules) {
  EXPECT_EQ(fails("graph @g(%a: f32[2]) {\n  %b = neg %a\n}"), "3:1: @g: missing return: a graph body ends with `return`");
  diags.clear();
  EXPECT_EQ(fails("graph @h(%a: f32[2]) -> (f32[3]) {\n  return %a\n}"),
            "2:10: return: value 1 has type f32[2], but @h declares f32[3]");
  diags.clear();
  EXPECT_EQ(fails("graph @k(%a: f32[2]) -> (f32[2], f32[2]) {\n  return %a\n}"),
            "2:3: return: @k returns 1 value, but its signature declares 2");
  diags.clear();
  EXPECT_EQ(fails("graph @m(%a: f32[2]) {\n  return %a\n  %b = neg %a\n}"),
            "3:3: statement after return: `return` must be the last statement of @m");
  diags.clear();
  EXPECT_EQ(fails("const %a : f32[] = 1\nreturn %a"), "2:1: return: the main graph has no return");
}

TEST_F(BuilderTest, OutputTypesInferredFromReturn) {
  ASSERT_TRUE(build("graph @g(%a: f32[2], %n: i32[]) {\n  %b = neg %a\n  return %b, %n\n}")) << error();
  EXPECT_FALSE(module.graphs[0]->outputsWritten);
  EXPECT_EQ(module.graphs[0]->outputTypes,
            (std::vector<TensorType>{{DType::F32, {2}}, {DType::I32, {}}}));
}

TEST_F(BuilderTest, SubgraphSeesOnlyItsOwnValues) {
  EXPECT_EQ(fails("const %c : f32[] = 1\ngraph @g(%a: f32[]) {\n  %b = add %a, %c\n  return %b\n}"),
            "3:16: add: unknown value %c in @g: a subgraph sees only its parameters and its own values; pass it as an "
            "argument");
  EXPECT_EQ(note(), "1:7: %c is a main-graph value declared here");
}

TEST_F(BuilderTest, CallArityAndExactTypes) {
  ASSERT_TRUE(build("graph @g(%a: f32[2]) -> (f32[2]) { return %a }\nconst %x : f32[2] = 0\nconst %s : f32[] = 0"));
  EXPECT_EQ(fails("%y = call @g(%x, %x)"), "1:11: call: @g takes 1 argument, got 2");
  diags.clear();
  EXPECT_EQ(fails("%y = call @g(%s)"), "1:14: call: argument 1 of @g has type f32[], but parameter %a is f32[2]");
  diags.clear();
  // A by-value literal argument takes the parameter's type.
  ASSERT_TRUE(build("%z = call @g(1.5)")) << error();
  const Op& call = *module.main->ops.back();
  ASSERT_EQ(call.callees.size(), 1u);
  EXPECT_EQ(call.args(0)[0].literalType(), (TensorType{DType::F32, {2}}));
}

TEST_F(BuilderTest, CallMayBindFewerResults) {
  ASSERT_TRUE(build("graph @g(%a: f32[]) { return %a, %a }\nconst %x : f32[] = 0\n%p = call @g(%x)")) << error();
  const Op& call = *module.main->ops.back();
  ASSERT_EQ(call.results.size(), 2u);
  EXPECT_EQ(call.results[0]->name, "p");
  EXPECT_TRUE(call.results[1]->generatedName);
  EXPECT_EQ(call.results[1]->name, "0");
}

TEST_F(BuilderTest, GeneratedNamesSkipTakenOnes) {
  ASSERT_TRUE(build("const %0 : f32[] = 1\nneg %0\n%2 = neg %0\nneg %0")) << error();
  auto& v = module.main->values;
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[1]->name, "1");
  EXPECT_EQ(v[3]->name, "3");
  // A name the user writes takes precedence over a generated one, which moves on.
  ASSERT_TRUE(build("%1 = neg %0")) << error();
  EXPECT_EQ(v[1]->name, "4");
  EXPECT_TRUE(v[1]->generatedName);
  EXPECT_EQ(module.main->lookup("1"), v[4].get());
  EXPECT_EQ(module.main->lookup("4"), v[1].get());
  // A name the user wrote cannot be redefined.
  EXPECT_EQ(fails("%2 = neg %0"), "1:1: redefinition of %2");
}

TEST_F(BuilderTest, Recursion) {
  EXPECT_EQ(fails("graph @g(%a: f32[]) {\n  %b = call @g(%a)\n  return %b\n}"), "2:13: recursion: @g calls itself");
}

TEST_F(BuilderTest, RepeatRules) {
  ASSERT_TRUE(build("graph @body(%c: f32[], %inv: f32[]) {\n  %n = add %c, %inv\n  return %n\n}\n"
                    "const %x : f32[] = 0\n%r = repeat @body(%x, %x) {count = 3}"))
      << error();
  EXPECT_EQ(fails("%s = repeat @body(%x, %x) {count = -1}"), "1:36: repeat: count must be >= 0, got -1");
  diags.clear();
  EXPECT_EQ(fails("graph @bad(%c: i32[]) { %f = cast %c {dtype = f32}\n return %f }\n%t = repeat @bad(0) {count = 1}"),
            "3:13: repeat: body @bad output 1 has type f32[], but the input %c it carries into is i32[]");
}

TEST_F(BuilderTest, ConditionalRules) {
  ASSERT_TRUE(build("graph @a(%x: f32[]) { return %x }\ngraph @b(%x: f32[]) { %y = neg %x\n return %y }\n"
                    "graph @c(%x: i32[]) { return %x }\ngraph @r(%x: &f32[]) { return %x }\n"
                    "const %p : bool[] = true\nconst %v : f32[] = 1\nconst %i : i32[] = 1"))
      << error();
  EXPECT_TRUE(build("%z = conditional %p, @a(%v), @b(%v)")) << error();
  EXPECT_EQ(fails("%z2 = conditional %v, @a(%v), @b(%v)"), "1:19: conditional: condition must be bool[] or bool[1], got f32[]");
  diags.clear();
  EXPECT_EQ(fails("%z3 = conditional %p, @a(%v), @c(%i)"),
            "1:31: conditional: branches have different output types: @a -> (f32[]), @c -> (i32[])");
  diags.clear();
  EXPECT_EQ(fails("%z4 = conditional %p, @r(%v), @a(%v)"),
            "1:23: conditional: branch @r has a by-reference input %x; conditional branches take inputs by value");
}

TEST_F(BuilderTest, InPlaceWriteToConstant) {
  ASSERT_TRUE(build("const %c : f32[2] = 1\nvar %w : f32[2] = 0\naccumulate_ %w, %c")) << error();
  EXPECT_EQ(fails("accumulate_ %c, %w"), "1:13: accumulate_: cannot write in place to a constant %c");
  EXPECT_EQ(note(), "1:7: %c is declared here");
  diags.clear();
  // Through an alias result.
  EXPECT_EQ(fails("%r = relu %c\n%a = reshape_ %c {shape = [2]}"), "2:15: reshape_: cannot write in place to a constant %c");
}

TEST_F(BuilderTest, InPlaceThroughByRefParam) {
  ASSERT_TRUE(build("graph @upd(%t: &f32[2]) { add_ %t, %t\n return }\n"
                    "graph @byval(%t: f32[2]) { add_ %t, %t\n return }\n"
                    "const %c : f32[2] = 1\nvar %w : f32[2] = 0\ncall @upd(%w)\ncall @byval(%c)"))
      << error();
  EXPECT_EQ(fails("call @upd(%c)"),
            "1:11: call: cannot write in place to a constant: @upd writes its by-reference input %t in place and "
            "argument 1 is the constant %c");
}

TEST_F(BuilderTest, ExchangeBlocks) {
  ASSERT_TRUE(build("ir {io_tiles = 4}\nh2d $x : f32[2]\nd2h $y : f32[2]\nconst %c : f32[2] = 0\n"
                    "exchange {tile_set = io} {\n  %a = host_load $x\n  host_store $y, %c\n}"))
      << error();
  ASSERT_EQ(module.main->ops.back()->region().size(), 2u);
  EXPECT_EQ(fails("exchange {\n  %b = host_load $x\n  host_store $y, %b\n}"),
            "3:18: exchange: host_store consumes %b, produced inside the same exchange block (a data dependency)");
  diags.clear();
  EXPECT_EQ(fails("exchange {\n  %d = neg %c\n}"),
            "2:8: exchange: only IO ops (host_load, host_store, remote_load, remote_load_, remote_store) may appear in "
            "an exchange block, not neg");
}

TEST_F(BuilderTest, AttributeChecks) {
  ASSERT_TRUE(build("const %x : f32[2,3] = 0")) << error();
  EXPECT_EQ(fails("%a = sum %x {axes = 1}"), "1:14: sum: unknown attribute 'axes'; did you mean 'axis'?");
  diags.clear();
  EXPECT_EQ(fails("%b = sum %x {keepdims = 1}"), "1:25: sum: attribute 'keepdims' must be true or false");
  diags.clear();
  EXPECT_EQ(fails("%c = nll_loss %x, %x {reduction = avg}"),
            "1:35: nll_loss: attribute 'reduction' must be one of mean, sum, none");
  diags.clear();
  EXPECT_EQ(fails("%d = transpose %x {ipu = 3}"), "1:26: transpose: ipu 3 is out of range: the IR has 1 IPU(s) per replica");
  EXPECT_TRUE(build("%e = transpose %x {tile = 5, tiles = [0, 4]}")) << error();
}

TEST_F(BuilderTest, ArityAndResultTypes) {
  ASSERT_TRUE(build("const %x : f32[2] = 0")) << error();
  EXPECT_EQ(fails("%a = add %x"), "1:6: add: expects 2 operands, got 1");
  diags.clear();
  EXPECT_EQ(fails("%b = neg %x : f32[3]"), "1:15: neg: result type f32[3] does not match the inferred type f32[2]");
  diags.clear();
  EXPECT_EQ(fails("%c, %d = neg %x"), "1:5: neg: 2 names for 1 result");
  diags.clear();
  EXPECT_TRUE(build("%e = neg %x : f32[2]")) << error();
}

TEST_F(BuilderTest, AllLiteralOperands) {
  EXPECT_EQ(fails("%a = add 1, 2"), "1:10: add: cannot infer the dtype: declare a const");
}

TEST_F(BuilderTest, AsAndUsingBindActivations) {
  ASSERT_TRUE(build("graph @fwd(%x: f32[2], %w: f32[2]) {\n  %y = mul %x, %w\n  return %y\n}\n"
                    "graph @fwd_grad(%grad.y: f32[2], %x: f32[2], %y: f32[2]) attributes {grad_of = @fwd, activations = [%x, %y]} {\n"
                    "  %g = mul %grad.y, %x\n  return %g\n}\n"
                    "const %a : f32[2] = 1\nconst %b : f32[2] = 2\n"
                    "%out = call @fwd(%a, %b) as fwd0\n%dw = call @fwd_grad(1.0) using fwd0"))
      << error();
  const Op& grad = *module.main->ops.back();
  ASSERT_EQ(grad.args(0).size(), 3u);
  EXPECT_EQ(grad.args(0)[1].value()->name, "a");
  EXPECT_EQ(grad.args(0)[2].value()->name, "out");
  EXPECT_EQ(module.graphs[1]->gradOf, module.graphs[0].get());
  EXPECT_EQ(fails("%dv = call @fwd_grad(1.0) using nope"), "1:33: call: unknown call label 'nope'; the call of @fwd is labelled 'fwd0'");
}

TEST_F(BuilderTest, AutodiffIsReportedAtTheDirective) {
  EXPECT_EQ(fails("graph @f(%x: f32[]) { return %x }\nautodiff @f -> @f_grad"), "2:1: autodiff is not available in this build");
}

TEST_F(BuilderTest, FeedShapes) {
  ASSERT_TRUE(build("ir {num_host_transfers = 2, replication = 2}\nh2d $x : f32[3]\nd2h $y : f32[3]\n"
                    "feed $x = [[[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [1, 2, 3]]]"))
      << error();
  EXPECT_EQ(fails("feed $x = [1, 2, 3]"), "1:11: feed $x: data of shape [3] does not match the buffer shape [2,2,3]");
  diags.clear();
  EXPECT_EQ(fails("feed $y = 1"), "1:6: feed: $y is not an h2d stream");
  diags.clear();
  EXPECT_EQ(fails("feed $z = 1"), "1:6: feed: unknown stream $z");
}

TEST_F(BuilderTest, ScalarFeedForSingleElementBuffer) {
  EXPECT_TRUE(build("h2d $x : f32[1]\nfeed $x = 4\nrun 0")) << error();
}

TEST_F(BuilderTest, WritePrintSaveRun) {
  ASSERT_TRUE(build("ir {replication = 2}\nvar %w : f32[2] = 0 {replica_grouping = (1, 1)}\nconst %c : f32[] = 1\n"
                    "d2h $y : f32[2]\nh2d $x : f32[2]\nwrite %w = [[1, 2], [3, 4]]\nprint %w, $y, $x, %c\nsave %w \"out.npy\""))
      << error();
  EXPECT_EQ(fails("write %c = 1"), "1:7: write: %c is not a variable");
  diags.clear();
  EXPECT_EQ(fails("write %w = [1, 2]"), "1:12: write %w: data of shape [2] does not match the buffer shape [2,2]");
  diags.clear();
  EXPECT_EQ(fails("print %nope"), "1:7: print: unknown value %nope in the main graph");
  diags.clear();
  Builder builder(module, diags, "");
  ast::RunCmd runCmd;
  runCmd.count = -1;
  runCmd.loc = SourceLoc{1, 1, 1};
  EXPECT_THROW(builder.run(std::move(runCmd)), CompileError);
  EXPECT_EQ(error(), "1:1: run: the count must be >= 0, got -1");
}

TEST_F(BuilderTest, RollbackAfterErrorRestoresTheModule) {
  ASSERT_TRUE(build("const %a : f32[] = 1")) << error();
  auto cp = module.checkpoint();
  EXPECT_FALSE(build("%b = neg %a\n%c = neg %zz"));
  module.rollback(cp);
  EXPECT_EQ(module.main->values.size(), 1u);
  EXPECT_FALSE(module.main->lookup("b"));
  EXPECT_TRUE(build("%b = neg %a")) << error();
  EXPECT_FALSE(build("graph @g(%q: f32[]) {\n  %r = neg %nope\n  return %r\n}"));
  EXPECT_TRUE(build("graph @g(%q: f32[]) { return %q }")) << error();
}

TEST_F(BuilderTest, VerifyModuleCatchesCorruptedIr) {
  ASSERT_TRUE(build("const %a : f32[2] = 1\n%b = neg %a")) << error();
  EXPECT_TRUE(verifyModule(module, diags));
  module.main->values[1]->type = TensorType{DType::F32, {3}};
  EXPECT_FALSE(verifyModule(module, diags));
  EXPECT_EQ(error(), "2:6: neg: result type f32[3] does not match the inferred type f32[2]");
}

}  // namespace
}  // namespace pir
