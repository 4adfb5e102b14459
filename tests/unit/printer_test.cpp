// The canonical printer (language.md §10): exact text for each construct, the
// fixed point print(parse(print(x))) == print(x) over every golden program,
// and speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/builder.h"
#include "ir/printer.h"
#include "tests/unit/spec_examples.h"

namespace pir {
namespace {

struct Parsed {
  bool ok = false;
  std::string text;   // printModule of the result, when ok
  std::string diags;  // everything reported
};

Parsed parseAndPrint(const std::string& source, const std::string& name = "test.pir") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  std::ostringstream err;
  diags.setStream(&err);
  Module module;
  uint32_t id = sources.add(name, source);
  Parsed p;
  try {
    p.ok = buildFromBuffer(module, diags, id, ".") && diags.errorCount() == 0;
  } catch (const CompileError&) {
    p.ok = false;
  }
  if (p.ok) p.text = printModule(module);
  p.diags = err.str();
  return p;
}

// Prints `source`, checks that printing is a fixed point, returns the text.
std::string canonical(const std::string& source) {
  Parsed first = parseAndPrint(source);
  EXPECT_TRUE(first.ok) << first.diags;
  Parsed second = parseAndPrint(first.text, "printed.pir");
  EXPECT_TRUE(second.ok) << second.diags << "\nwhile reparsing:\n" << first.text;
  EXPECT_EQ(first.text, second.text);
  return first.text;
}

TEST(Printer, LanguageExample) {
  const char* source = test::kLanguageExample;
  EXPECT_EQ(canonical(source),
            "h2d $x : f32[2,3]\n"
            "d2h $y : f32[2,2]\n"
            "\n"
            "graph @linear(%x: f32[2,3], %W: f32[3,2], %b: f32[2]) -> (f32[2,2]) {\n"
            "  %xw = matmul %x, %W : f32[2,2]\n"
            "  %y = add %xw, %b : f32[2,2]\n"
            "  return %y\n"
            "}\n"
            "\n"
            "main {\n"
            "  var %W : f32[3,2] = [[1, 0], [0, 1], [1, 1]]\n"
            "  var %b : f32[2] = 0.5\n"
            "  %x = host_load $x : f32[2,3]\n"
            "  %y = call @linear(%x, %W, %b) : f32[2,2]\n"
            "  host_store $y, %y\n"
            "}\n");
}

TEST(Printer, IrOptionsOnlyNonDefaultInTableOrder) {
  EXPECT_EQ(canonical("ir {seed = 3, replication = 2, ipus = 1}\n"),
            "ir {replication = 2, seed = 3}\n\nmain {\n}\n");
  EXPECT_EQ(canonical("ir {replication = 1}\n"), "main {\n}\n");
}

TEST(Printer, OmittedOutputListIsPrinted) {
  std::string text = canonical("graph @g(%a: f32[2], %b: &i32[]) {\n  %c = neg %a\n  return %c, %b\n}\n");
  EXPECT_NE(text.find("graph @g(%a: f32[2], %b: &i32[]) -> (f32[2], i32[]) {\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  return %c, %b\n}\n"), std::string::npos) << text;
}

TEST(Printer, DefaultAttributesOmittedOthersInTableOrder) {
  std::string text = canonical(
      "const %x : f32[2,3] = 1\n"
      "%a = sum %x {keepdims = false, axis = all}\n"
      "%b = sum %x {keepdims = true, axis = 0}\n"
      "%c = scaled_add %x, %x {b = 2, a = 1}\n"
      "%d = cast %x {dtype = half}\n"
      "%e = add %x, %x {tile = 2, ipu = 0}\n");
  EXPECT_NE(text.find("  %a = sum %x : f32[]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  %b = sum %x {axis = 0, keepdims = true} : f32[1,3]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  %c = scaled_add %x, %x {b = 2} : f32[2,3]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  %d = cast %x {dtype = f16} : f16[2,3]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  %e = add %x, %x {ipu = 0, tile = 2} : f32[2,3]\n"), std::string::npos) << text;
}

TEST(Printer, NumbersShortestInTheirDType) {
  std::string text = canonical(
      "const %a : f32[3] = [0.1, 1e-8, 0.333333333333]\n"
      "const %b : f64[] = 0.1\n"
      "const %c : f32[2] = [-0.0, 2.50]\n"
      "const %d : i32[2] = [-7, 2147483647]\n"
      "const %e : bool[2] = [true, false]\n");
  EXPECT_NE(text.find("const %a : f32[3] = [0.1, 1e-08, 0.33333334]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("const %b : f64[] = 0.1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("const %c : f32[2] = [-0, 2.5]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("const %d : i32[2] = [-7, 2147483647]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("const %e : bool[2] = [true, false]\n"), std::string::npos) << text;
}

TEST(Printer, LiteralOperandsStayLiterals) {
  std::string text = canonical("const %x : f32[2] = [1, 2]\n%y = add %x, 0.1\n%z = mul %x, [2, 3]\n");
  EXPECT_NE(text.find("  %y = add %x, 0.1 : f32[2]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  %z = mul %x, [2, 3] : f32[2]\n"), std::string::npos) << text;
}

TEST(Printer, StringsAreReEscaped) {
  std::string text = canonical("const %x : f32[] = 1\n%p = print_tensor %x {title = \"a \\\"q\\\" \\\\ b\\n\\tc\"}\n");
  EXPECT_NE(text.find("{title = \"a \\\"q\\\" \\\\ b\\n\\tc\"}"), std::string::npos) << text;
}

TEST(Printer, CommentsAndSessionCommandsAreDropped) {
  std::string text = canonical(
      "h2d $x : f32[]  # the input\n"
      "%x = host_load $x\n"
      "feed $x = 1\nrun 2\nprint %x\n");
  EXPECT_EQ(text, "h2d $x : f32[]\n\nmain {\n  %x = host_load $x : f32[]\n}\n");
}

TEST(Printer, UnnamedResultsGetNamesThatReadBack) {
  std::string text = canonical("const %x : f32[2] = [1, 2]\nsplit %x {splits = [1, 1]}\n");
  size_t eq = text.find(" = split %x {splits = [1, 1]} : f32[1], f32[1]\n");
  ASSERT_NE(eq, std::string::npos) << text;
  // Two generated names before the `=`.
  size_t lineStart = text.rfind('\n', eq) + 1;
  std::string names = text.substr(lineStart, eq - lineStart);
  EXPECT_EQ(names.find("  %"), 0u) << names;
  EXPECT_NE(names.find(", %"), std::string::npos) << names;
}

TEST(Printer, ExchangeBlockWithAttributes) {
  std::string text = canonical(
      "ir {io_tiles = 1}\nh2d $x : f32[2]\nd2h $y : f32[2]\nconst %c : f32[2] = 1\n"
      "exchange {\n  %a = host_load $x\n  host_store $y, %c\n} {tile_set = io}\n");
  EXPECT_NE(text.find("  exchange {tile_set = io} {\n"
                      "    %a = host_load $x : f32[2]\n"
                      "    host_store $y, %c\n"
                      "  }\n"),
            std::string::npos)
      << text;
}

TEST(Printer, PrintGraphPrintsOneGraph) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  Module module;
  uint32_t id = sources.add("g.pir", "graph @g(%a: f32[]) {\n  return %a\n}\n%b = const_free_placeholder\n");
  // The second statement is an error: the graph before it stays defined.
  EXPECT_FALSE(buildFromBuffer(module, diags, id, "."));
  Graph* g = module.findGraph("g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(printGraph(module, *g), "graph @g(%a: f32[]) -> (f32[]) {\n  return %a\n}\n");
  EXPECT_EQ(printGraph(module, *module.main), "main {\n}\n");
}

TEST(Printer, AppendAttrAndLiteralFragments) {
  std::string out;
  appendAttr(out, Attr::list({Attr::integer(1), Attr::tuple({Attr::real(0.5), Attr::word("all")}),
                              Attr::string("q\"")}));
  EXPECT_EQ(out, "[1, (0.5, all), \"q\\\"\"]");

  Literal lit;
  lit.shape = {2, 0};
  out.clear();
  appendLiteral(out, lit, DType::F32);
  EXPECT_EQ(out, "[[], []]");

  // A zero-size shape whose nested lists would be too many prints as `[]`, at once.
  lit.shape = {int64_t{1} << 40, 3, 0};
  out.clear();
  appendLiteral(out, lit, DType::F32);
  EXPECT_EQ(out, "[]");
  lit.shape = {1000, 0};
  out.clear();
  appendLiteral(out, lit, DType::F32);
  EXPECT_EQ(out.size(), 2 + 1000 * 2 + 999 * 2);  // [[], [], ...]: still nested at the bound
  lit.shape = {1001, 0};
  out.clear();
  appendLiteral(out, lit, DType::F32);
  EXPECT_EQ(out, "[]");

  lit.shape = {2, 1, 2};
  lit.values = {1, 2.5, -3, 0.1};
  out.clear();
  appendLiteral(out, lit, DType::F32);
  EXPECT_EQ(out, "[[[1, 2.5]], [[-3, 0.1]]]");
  out.clear();
  appendLiteral(out, lit, DType::I32);  // read in an integer dtype: truncated as stored
  EXPECT_EQ(out, "[[[1, 2]], [[-3, 0]]]");

  Literal gen;
  gen.kind = Literal::Kind::Uniform;
  gen.args = {-1, 0.25, 42};
  out.clear();
  appendLiteral(out, gen, DType::F32);
  EXPECT_EQ(out, "uniform(-1, 0.25, 42)");
}

// Every golden program (samples, tests/lit/roundtrip) prints to a fixed point.
TEST(Printer, FixedPointOverGoldenPrograms) {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const char* dir : {"samples", "tests/lit/roundtrip"}) {
    fs::path root = fs::path(PIR_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (auto& entry : fs::directory_iterator(root)) {
      if (entry.path().extension() != ".pir") continue;
      std::ifstream f(entry.path());
      std::stringstream ss;
      ss << f.rdbuf();
      Parsed first = parseAndPrint(ss.str(), entry.path().string());
      if (!first.ok) continue;  // diagnostics goldens are not in these folders, but stay robust
      Parsed second = parseAndPrint(first.text, "printed.pir");
      ASSERT_TRUE(second.ok) << entry.path() << ":\n" << second.diags << first.text;
      EXPECT_EQ(first.text, second.text) << entry.path();
      ++checked;
    }
  }
  EXPECT_GE(checked, 6);
}

// A million ops print completely and in order. (How fast is measured in
// bench/parse_bench.cpp, BM_PrintOnly: unit tests assert no wall-clock times.)
TEST(Printer, MillionOpsPrint) {
#ifdef NDEBUG
  const int kOps = 1000000;
#else
  const int kOps = 100000;
#endif
  Module module;
  Graph& g = *module.main;
  TensorType type{DType::F32, {2}};
  auto newValue = [&](std::string name) {
    auto v = std::make_unique<Value>();
    v->name = std::move(name);
    v->type = type;
    v->graph = &g;
    v->id = static_cast<unsigned>(g.values.size());
    g.values.push_back(std::move(v));
    return g.values.back().get();
  };
  Value* prev = newValue("x");
  {
    auto decl = std::make_unique<Op>();
    decl->code = OpCode::Const;
    decl->results = {prev};
    auto one = std::make_shared<Literal>();
    one->values = {1};
    decl->setInit(one);
    prev->kind = Value::Kind::Const;
    prev->def = decl.get();
    g.ops.push_back(std::move(decl));
  }
  for (int i = 0; i < kOps; ++i) {
    auto op = std::make_unique<Op>();
    op->code = OpCode::Add;
    Operand a, b;
    a.setValue(prev);
    b.setKind(Operand::Kind::Literal);
    auto half = std::make_shared<Literal>();
    half->values = {0.5};
    b.setLiteral(half);
    b.setLiteralType(TensorType{DType::F32, {}});
    op->operands = {a, b};
    Value* r = newValue(std::to_string(i));
    r->def = op.get();
    op->results = {r};
    op->parent = &g;
    g.ops.push_back(std::move(op));
    prev = r;
  }
  std::string text = printModule(module);
  EXPECT_NE(text.find("  %1 = add %0, 0.5 : f32[2]\n"), std::string::npos);
  const std::string last = "  %" + std::to_string(kOps - 1) + " = add %" + std::to_string(kOps - 2) + ", 0.5 : f32[2]\n";
  EXPECT_NE(text.find(last), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), kOps + 3);  // main {, the const, the ops, }
}

}  // namespace
}  // namespace pir
