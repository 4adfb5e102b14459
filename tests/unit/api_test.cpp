// The public C++ API (include/pir/pir.h): parse, print, verify, build, passes,
// sessions, tensors and NPY, through the API alone.
#include "pir/pir.h"
#include "pir/tool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace pir::api {
namespace {

const char* kProgram =
    "h2d $x : f32[2]\n"
    "d2h $y : f32[2]\n"
    "var %w : f32[2] = [1, 2]\n"
    "%x = host_load $x\n"
    "%s = add %w, %x\n"
    "host_store $y, %s\n"
    "feed $x = [10, 20]\n"
    "run\n"
    "print $y\n";

TEST(Api, ParsePrintAndRunTheScript) {
  Context context;
  Result<Module> m = Module::parse(context, kProgram, "p.pir");
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->scriptLength(), 3u);
  EXPECT_NE(m->print().find("%s = add %w, %x"), std::string::npos);
  EXPECT_TRUE(m->verify());
  Result<Session> s = Session::create(context, *m);
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->runScript());
  EXPECT_EQ(s->takeOutput(), "$y: f32[2] = [11, 22]\n");
  Result<Tensor> y = s->read("y");
  ASSERT_TRUE(y) << y.error();
  EXPECT_EQ(y->dtype, DType::F32);
  EXPECT_EQ(y->shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(y->toDoubles(), (std::vector<double>{11, 22}));
}

// A parse error is the located diagnostic text, as `pir` prints it; nothing runs.
TEST(Api, ErrorsAreLocatedDiagnostics) {
  Context context;
  Result<Module> m = Module::parse(context, "save %w \"never.npy\"\nvar %w : f32[] = 1\n", "bad.pir");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().rfind("bad.pir:1:6: error: save: unknown value %w", 0), 0u) << m.error();
  EXPECT_FALSE(std::filesystem::exists("never.npy"));
}

// A command runs the program as defined when it was read (language.md §11).
TEST(Api, ACommandSeesTheProgramUpToItsPoint) {
  Context context;
  Result<Module> m = Module::parse(context,
                                   "var %n : f32[] = 0\naccumulate_ %n, 1\nrun\nprint %n\n"
                                   "accumulate_ %n, 10\nrun\nprint %n\n");
  ASSERT_TRUE(m) << m.error();
  Result<Session> s = Session::create(context, *m);
  ASSERT_TRUE(s->runScript()) << s->takeOutput();
  EXPECT_EQ(s->takeOutput(), "%n: f32[] = 1\n%n: f32[] = 12\n");
}

TEST(Api, BuildFeedRunReadWrite) {
  Context context;
  Module m = Module::create(context);
  const Type vec{DType::F32, {2}};
  ASSERT_TRUE(m.declareStream("x", StreamDirection::HostToDevice, vec));
  Result<std::vector<Ref>> params = m.beginGraph("twice", {{"v", vec}});
  ASSERT_TRUE(params) << params.error();
  Result<Ref> r = m.op1(OpCode::Mul, {(*params)[0], 2.0});
  ASSERT_TRUE(r) << r.error();
  ASSERT_TRUE(m.endGraph({*r}));
  Result<Ref> w = m.variable("w", vec, Tensor::fromDoubles(DType::F32, {2}, {1, 2}));
  ASSERT_TRUE(w) << w.error();
  Result<Ref> x = m.op1(OpCode::HostLoad, {Ref{"$x"}}, {}, "x");
  ASSERT_TRUE(x) << x.error();
  Result<std::vector<Ref>> d = m.call("twice", {*x}, {"d"});
  ASSERT_TRUE(d) << d.error();
  ASSERT_TRUE(m.op(OpCode::ScaledAddInplace, {*w, d->front()}, {{"a", 1.0}, {"b", 0.5}}));
  ASSERT_TRUE(m.verify());

  // A mistake is reported and leaves the module as it was.
  const std::string before = m.print();
  Result<Ref> bad = m.op1(OpCode::Add, {*w, Ref{"%nope"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("add: unknown value %nope"), std::string::npos) << bad.error();
  EXPECT_EQ(m.print(), before);

  Result<Session> s = Session::create(context, m);
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->feed("x", Tensor::fromDoubles(DType::F32, {2}, {10, 20})));
  ASSERT_TRUE(s->run(2));
  EXPECT_EQ(s->read("%w")->toDoubles(), (std::vector<double>{21, 42}));
  EXPECT_EQ(s->read("%d")->toDoubles(), (std::vector<double>{20, 40}));
  ASSERT_TRUE(s->write("w", Tensor::fromDoubles(DType::F32, {2}, {0, 0})));
  EXPECT_EQ(s->read("w")->toDoubles(), (std::vector<double>{0, 0}));
  Status wrongShape = s->feed("x", Tensor::fromDoubles(DType::F32, {3}, {1, 2, 3}));
  EXPECT_FALSE(wrongShape);
  EXPECT_NE(wrongShape.error().find("does not match the buffer shape [2]"), std::string::npos) << wrongShape.error();
  Result<std::string> profile = s->profile();
  ASSERT_TRUE(profile) << profile.error();
  EXPECT_NE(profile->find("cycles"), std::string::npos) << *profile;
}

TEST(Api, EnumAttributesTakeTheirEnum) {
  Context context;
  Module m = Module::create(context);
  Result<Ref> x = m.variable("x", Type{DType::F32, {2}}, Tensor::fromDoubles(DType::F32, {2}, {1, 2}));
  ASSERT_TRUE(x) << x.error();
  ASSERT_TRUE(m.op1(OpCode::AllReduce, {*x}, {{"op", CollectiveOp::Max}}, "r"));
  ASSERT_TRUE(m.op1(OpCode::AllReduce, {*x}, {{"op", Word{"min"}}}, "s"));
  EXPECT_NE(m.print().find("%r = replicated_all_reduce %x {op = max}"), std::string::npos) << m.print();
  EXPECT_NE(m.print().find("%s = replicated_all_reduce %x {op = min}"), std::string::npos) << m.print();
}

TEST(Api, PassesAndAutodiff) {
  Context context;
  const std::vector<std::string> passes = context.passNames();
  EXPECT_NE(std::find(passes.begin(), passes.end(), "inline"), passes.end());
  Result<Module> m = Module::parse(context,
                                   "graph @f(%a: f32[]) -> (f32[]) {\n  %b = mul %a, %a\n  return %b\n}\n"
                                   "const %c : f32[] = 3\n%y = call @f(%c)\n");
  ASSERT_TRUE(m) << m.error();
  ASSERT_TRUE(m->autodiff("f", "f_grad"));
  ASSERT_TRUE(m->runPasses({"inline", "dce"}));
  EXPECT_EQ(m->print().find("call @f("), std::string::npos) << m->print();
  Status unknown = m->runPasses({"no-such-pass"});
  EXPECT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("unknown pass 'no-such-pass'"), std::string::npos);
}

TEST(Api, NpyRoundTrip) {
  const std::string path = (std::filesystem::temp_directory_path() / "pir_api_test.npy").string();
  Tensor t = Tensor::fromDoubles(DType::I32, {2, 2}, {1, -2, 3, 4});
  ASSERT_TRUE(saveNpy(path, t));
  Result<Tensor> back = loadNpy(path);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->dtype, DType::I32);
  EXPECT_EQ(back->shape, t.shape);
  EXPECT_EQ(back->bytes, t.bytes);
  std::filesystem::remove(path);
  EXPECT_FALSE(loadNpy(path));
  EXPECT_EQ(dtypeFromName("f16"), DType::F16);
  EXPECT_EQ(dtypeToString(DType::Bool), "bool");
}

// Text added in pieces builds what one file holding the pieces would; a
// subgraph opened by beginGraph takes the statements added until endGraph.
TEST(Api, TextAddedInPiecesBuildsOneProgram) {
  Context context;
  Module m = Module::create(context);
  ASSERT_TRUE(m.add("d2h $o : i32[]"));
  ASSERT_TRUE(m.add("var %a : i32[] = 3"));
  Result<std::vector<Ref>> params = m.beginGraph("inc", {{"x", Type{DType::I32, {}}, true}});
  ASSERT_TRUE(params) << params.error();
  EXPECT_EQ(m.openGraph(), "inc");
  ASSERT_TRUE(m.add("%y = add %x, 1"));
  ASSERT_TRUE(m.add("return %y"));
  ASSERT_TRUE(m.endGraph({}));  // the text's return stands
  EXPECT_EQ(m.openGraph(), "");
  ASSERT_TRUE(m.add("%r = call @inc(%a) as site\nhost_store $o, %r\nrun\nprint $o", "tail.pir"));
  EXPECT_EQ(m.scriptLength(), 2u);
  EXPECT_NE(m.print().find("graph @inc(%x: &i32[]) -> (i32[])"), std::string::npos) << m.print();

  // Reading it back.
  EXPECT_EQ(m.typeOf("%y", "inc")->dtype, DType::I32);
  EXPECT_EQ(m.typeOf("r")->shape, std::vector<int64_t>{});
  EXPECT_EQ(m.typeOf("$o")->dtype, DType::I32);
  EXPECT_EQ(m.typeOf("%nope", "inc").error(), "error: unknown value %nope in @inc\n");
  EXPECT_FALSE(m.typeOf("%y", "nograph"));
  EXPECT_EQ(m.graphNames(), std::vector<std::string>{"inc"});
  Result<GraphInfo> info = m.graphInfo("inc");
  ASSERT_TRUE(info) << info.error();
  ASSERT_EQ(info->params.size(), 1u);
  EXPECT_TRUE(info->params[0].byRef);
  EXPECT_EQ(info->params[0].name, "x");
  ASSERT_EQ(info->returns.size(), 1u);
  EXPECT_EQ(info->returns[0]->name, "%y");
  EXPECT_EQ(info->outputs[0].dtype, DType::I32);
  EXPECT_FALSE(info->gradientOf);
  Result<std::vector<TypedRef>> site = m.labelledResults("main", "site");
  ASSERT_TRUE(site) << site.error();
  ASSERT_EQ(site->size(), 1u);
  EXPECT_EQ((*site)[0].ref.name, "%r");
  EXPECT_FALSE(m.labelledResults("main", "nowhere"));

  Result<Session> s = Session::create(context, m);
  ASSERT_TRUE(s->runScript());
  EXPECT_EQ(s->takeOutput(), "$o: i32[] = 4\n");

  // A failed piece is located in its own text and changes nothing.
  const std::string before = m.print();
  Status bad = m.add("%z = add %r, 1\n%w = mul %z, %nope", "piece.pir");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rfind("piece.pir:2:", 0), 0u) << bad.error();
  EXPECT_EQ(m.print(), before);
  EXPECT_FALSE(m.add("graph @g(%p: f32[]) {\n  %q = neg %nope\n  return %q\n}"));
  EXPECT_EQ(m.print(), before);
  EXPECT_EQ(m.graphNames(), std::vector<std::string>{"inc"});
}

// A probe builds one statement alone, reports its result types, and drops it.
TEST(Api, ResultTypesOfAStatementLeaveTheProgramAsItWas) {
  Context context;
  Result<Module> m = Module::parse(context, "var %w : f32[3,4] = 0\n");
  ASSERT_TRUE(m) << m.error();
  const std::string before = m->print();
  Result<std::vector<Type>> types =
      m->resultTypes({{"a", Type{DType::F32, {2, 3}}}, {"b", Type{DType::F32, {3, 4}}}}, "matmul %a, %b");
  ASSERT_TRUE(types) << types.error();
  ASSERT_EQ(types->size(), 1u);
  EXPECT_EQ((*types)[0].shape, (std::vector<int64_t>{2, 4}));
  types = m->resultTypes({{"x", Type{DType::I32, {4}}}}, "split %x {splits = [1, 3]}");
  ASSERT_TRUE(types) << types.error();
  ASSERT_EQ(types->size(), 2u);
  EXPECT_EQ((*types)[1].shape, std::vector<int64_t>{3});
  EXPECT_EQ((*types)[1].dtype, DType::I32);
  Result<std::vector<Type>> bad = m->resultTypes({{"a", Type{DType::F32, {2, 3}}}}, "matmul %a, %a", "site.py");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rfind("site.py:1:", 0), 0u) << bad.error();
  EXPECT_EQ(m->print(), before);
  EXPECT_TRUE(m->graphNames().empty());
  EXPECT_EQ(m->openGraph(), "");
}

TEST(Api, AbandonedGraphsAndOptions) {
  Context context;
  Module m = Module::create(context);
  EXPECT_FALSE(m.abandonGraph());
  ASSERT_TRUE(m.beginGraph("g", {{"p", Type{DType::F32, {2}}}}));
  EXPECT_FALSE(m.beginGraph("h", {}));  // graphs do not nest
  ASSERT_TRUE(m.add("%q = neg %p"));
  ASSERT_TRUE(m.abandonGraph());
  EXPECT_TRUE(m.graphNames().empty());
  ASSERT_TRUE(m.declareRemoteBuffer("rb", Type{DType::F32, {2}}, 3));
  EXPECT_NE(m.print().find("remote_buffer $rb : f32[2] {entries = 3}"), std::string::npos) << m.print();
  EXPECT_EQ(m.typeOf("$rb")->shape, std::vector<int64_t>{2});

  EXPECT_EQ(m.options().replication, 1);
  ASSERT_TRUE(m.setOptions(ModuleOptions{2, 3, 7}));
  EXPECT_EQ(m.options().replication, 2);
  EXPECT_EQ(m.options().numHostTransfers, 3);
  EXPECT_EQ(m.options().seed, 7);
  Status bad = m.setOptions(ModuleOptions{0, 1, 0});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("replication"), std::string::npos) << bad.error();
  EXPECT_EQ(m.options().replication, 2);
}

// Warnings of calls that succeed are kept for the caller, located.
TEST(Api, WarningsOfSuccessfulCalls) {
  Context context;
  Module m = Module::create(context);
  ASSERT_TRUE(m.add("graph @g(%x: f32[2]) {\n  %t = mul %x, 2\n  add_ %t, 1\n  return %x\n}", "w.pir"));
  const std::string warnings = m.takeWarnings();
  EXPECT_EQ(warnings.rfind("w.pir:3:8: warning: add_: writes %t in place", 0), 0u) << warnings;
  // A probe's op, read by nothing, warns nothing.
  ASSERT_TRUE(m.resultTypes({{"x", Type{DType::F32, {2}}}}, "add_ %x, 1"));
  EXPECT_EQ(m.takeWarnings(), "");
}

TEST(Api, TheOpTableAsData) {
  const std::vector<OpSpec> table = opTable();
  auto find = [&](const std::string& name) {
    return std::find_if(table.begin(), table.end(), [&](const OpSpec& o) { return o.name == name; });
  };
  ASSERT_NE(find("add"), table.end());
  EXPECT_EQ(find("add")->code, OpCode::Add);
  EXPECT_EQ(find("add")->minOperands, 2);
  EXPECT_FALSE(find("add")->inplace);
  ASSERT_NE(find("scaled_add_"), table.end());
  EXPECT_TRUE(find("scaled_add_")->inplace);
  EXPECT_TRUE(find("call")->control);
  EXPECT_TRUE(find("host_load")->operands.at(0).resource);
  EXPECT_EQ(find("var"), table.end());  // a declaration, not an op statement
  const OpSpec& softmax = *find("softmax");
  ASSERT_EQ(softmax.attrs.size(), 1u);
  EXPECT_EQ(softmax.attrs[0].name, "axis");
  EXPECT_EQ(softmax.attrs[0].type, "int");
  EXPECT_FALSE(softmax.attrs[0].required);
  bool anEnum = false;
  for (const OpSpec& op : table)
    for (const OpAttrSpec& a : op.attrs)
      if (a.type == "enum") anEnum = anEnum || !a.enumValues.empty();
  EXPECT_TRUE(anEnum);
}

TEST(Api, TensorLiteralsReadBackExactly) {
  Tensor t = Tensor::fromDoubles(DType::F32, {2, 2}, {0.1, -0.0, 1e30, 3});
  EXPECT_EQ(t.literal(), "[[0.1, -0], [1e+30, 3]]");
  EXPECT_EQ(Tensor::fromDoubles(DType::Bool, {}, {1}).literal(), "true");
  EXPECT_EQ(Tensor::fromDoubles(DType::I32, {0, 3}, {}).literal(), "[]");
  Context context;
  Result<Module> m = Module::parse(context, "var %v : f32[2,2] = " + t.literal() + "\n");
  ASSERT_TRUE(m) << m.error();
  Result<Session> s = Session::create(context, *m);
  EXPECT_EQ(s->read("%v")->bytes, t.bytes);
}

// Feeds from the caller's memory: in place when the layout and dtype match,
// else gathered and converted in the one pass; results shared with the session.
TEST(Api, FeedFromMemoryAndSharedResults) {
  Context context;
  Result<Module> m = Module::parse(context,
                                   "h2d $x : f32[2,2]\nd2h $y : f32[2,2]\n%x = host_load $x\n%y = mul %x, 2\n"
                                   "host_store $y, %y\n");
  ASSERT_TRUE(m) << m.error();
  Result<Session> s = Session::create(context, *m);
  const std::vector<int64_t> shape{2, 2};
  const float rowMajor[] = {1, 2, 3, 4};
  ASSERT_TRUE(s->feed("x", TensorView{DType::F32, shape, {}, rowMajor}));
  ASSERT_TRUE(s->run());
  Result<SharedTensor> first = s->readShared("$y");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->copy().toDoubles(), (std::vector<double>{2, 4, 6, 8}));
  EXPECT_EQ(first->shape(), shape);
  EXPECT_EQ(first->byteSize(), 16u);
  // Two reads of one buffer are the same memory; a later run leaves the first as it was.
  EXPECT_EQ(s->readShared("$y")->data(), first->data());

  const double columnMajor[] = {1, 3, 2, 4};  // f64, transposed strides
  const std::vector<int64_t> strides{8, 16};
  const TensorView transposed{DType::F64, shape, strides, columnMajor};
  EXPECT_FALSE(transposed.contiguous());
  ASSERT_TRUE(s->feed("$x", transposed));
  ASSERT_TRUE(s->run());
  EXPECT_EQ(s->read("$y")->toDoubles(), (std::vector<double>{2, 4, 6, 8}));
  const int32_t ints[] = {-1, 0, 5, 7};
  ASSERT_TRUE(s->feed("x", TensorView{DType::I32, shape, {}, ints}));
  ASSERT_TRUE(s->run());
  EXPECT_EQ(s->read("$y")->toDoubles(), (std::vector<double>{-2, 0, 10, 14}));
  EXPECT_EQ(first->copy().toDoubles(), (std::vector<double>{2, 4, 6, 8}));

  const std::vector<int64_t> wrong{4};
  Status bad = s->feed("x", TensorView{DType::F32, wrong, {}, rowMajor});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("feed $x: expected data of shape [2,2]"), std::string::npos) << bad.error();
  EXPECT_FALSE(s->feed("y", TensorView{DType::F32, shape, {}, rowMajor}));  // a d2h stream
  EXPECT_FALSE(s->feed("x", TensorView{DType::F32, shape, {}, nullptr}));
  const std::vector<int64_t> negative{-1, -1};
  EXPECT_FALSE(s->feed("x", TensorView{DType::F32, negative, {}, rowMajor}));
  ASSERT_TRUE(s->run());  // the failed feeds left $x as it was
  EXPECT_EQ(s->read("$y")->toDoubles(), (std::vector<double>{-2, 0, 10, 14}));

  ASSERT_TRUE(s->reset());
  EXPECT_FALSE(s->run());  // $x was never fed since the reset
  EXPECT_FALSE(s->run(-1));
}

// A failure's first message alone, for a tool that words its own report (the
// ONNX importer); the whole located text stays in error().
TEST(Api, AFailureCarriesItsFirstMessageAlone) {
  Context context;
  Module m = Module::create(context);
  Status s = m.add("%y = add %nope, 1", "f.pir");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().rfind("f.pir:1:", 0), 0u) << s.error();
  EXPECT_EQ(s.message().find("f.pir"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("%nope"), std::string::npos) << s.message();
  EXPECT_EQ(Status().message(), "");
}

// Module::create(context, dir): relative load() paths of added text resolve against dir.
TEST(Api, AnEmptyModuleResolvesLoadsAgainstItsDirectory) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pir_api_test_dir";
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(saveNpy((dir / "w.npy").string(), Tensor::fromDoubles(DType::F32, {2}, {5, 6})));
  Context context;
  Module m = Module::create(context, dir.string());
  ASSERT_TRUE(m.add("var %w : f32[2] = load(\"w.npy\")"));
  Result<Session> s = Session::create(context, m);
  ASSERT_TRUE(s) << s.error();
  Result<Tensor> w = s->read("%w");
  ASSERT_TRUE(w) << w.error();
  EXPECT_EQ(w->toDoubles(), (std::vector<double>{5, 6}));
  std::filesystem::remove_all(dir);
}

// ContextOptions::warnings: -Werror makes a warning fail the call; -w drops it.
TEST(Api, TheWarningPolicyOfTheContext) {
  const char* text = "graph @g(%x: f32[2]) {\n  %t = mul %x, 2\n  add_ %t, 1\n  return %x\n}";
  Context strict({.warnings = Warnings::Error});
  Result<Module> failed = Module::parse(strict, text, "w.pir");
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().find("w.pir:3:8: error: add_: writes %t in place"), std::string::npos) << failed.error();
  Context quiet({.warnings = Warnings::Ignore});
  Result<Module> m = Module::parse(quiet, text, "w.pir");
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->takeWarnings(), "");
}

// `pir check`: every independent error, not only the first; warnings on success.
TEST(Api, CheckReportsEveryError) {
  Context context;
  Result<std::string> bad = Module::check(context, "%a = add %x, 1\n%b = mul %y, 2\n", "c.pir");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("c.pir:1:"), std::string::npos) << bad.error();
  EXPECT_NE(bad.error().find("c.pir:2:"), std::string::npos) << bad.error();
  Result<std::string> good = Module::check(context, "var %w : f32[2] = 1\n", "c.pir");
  ASSERT_TRUE(good) << good.error();
  EXPECT_EQ(*good, "");
}

TEST(Api, PassesByNameAndTheirPipeline) {
  Context context;
  const std::vector<PassInfo> passes = context.passes();
  ASSERT_FALSE(passes.empty());
  EXPECT_EQ(passes.size(), context.passNames().size());
  EXPECT_TRUE(std::any_of(passes.begin(), passes.end(), [](const PassInfo& p) { return p.name == "dce" && !p.summary.empty(); }));
  Result<std::vector<std::string>> pipeline = context.parsePipeline(" inline, dce ,");
  ASSERT_TRUE(pipeline) << pipeline.error();
  EXPECT_EQ(*pipeline, (std::vector<std::string>{"inline", "dce"}));
  Result<std::vector<std::string>> typo = context.parsePipeline("inline,dec");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.message().find("'dec'"), std::string::npos) << typo.message();
  EXPECT_NE(typo.message().find("did you mean 'dce'?"), std::string::npos) << typo.message();
  // --print-after-each: each pass's program, as a comment heading a valid text.
  Result<Module> m = Module::parse(context, "var %w : f32[2] = 1\nprint %w\n");
  ASSERT_TRUE(m) << m.error();
  std::ostringstream after;
  ASSERT_TRUE(m->runPasses({"dce"}, false, &after));
  EXPECT_EQ(after.str().rfind("# -- after dce --\nmain {\n", 0), 0u) << after.str();
}

TEST(Api, TheScriptResourcesAndDotOfAProgram) {
  Context context;
  Result<Module> m = Module::parse(context, kProgram, "p.pir");
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->scriptCommands(), (std::vector<std::string>{"feed", "run", "print"}));
  const std::vector<ResourceInfo> resources = m->resources();
  ASSERT_EQ(resources.size(), 2u);
  EXPECT_EQ(resources[0].name, "x");
  EXPECT_EQ(resources[0].kind, ResourceInfo::Kind::HostToDevice);
  EXPECT_EQ(resources[1].kind, ResourceInfo::Kind::DeviceToHost);
  EXPECT_EQ(resources[1].type.shape, (std::vector<int64_t>{2}));
  Result<std::string> dot = m->dot();
  ASSERT_TRUE(dot) << dot.error();
  EXPECT_EQ(dot->rfind("digraph", 0), 0u) << *dot;
  EXPECT_TRUE(m->dot("main"));
  EXPECT_FALSE(m->dot("nope"));
}

// What `pir run --feed --save --profile` does: output as it runs, data from
// outside the script, a profile with the script's runs, the bytecode.
TEST(Api, ASessionForAScriptRun) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pir_api_script_run";
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "x.npy").string(), out = (dir / "s.npy").string();
  ASSERT_TRUE(saveNpy(in, Tensor::fromDoubles(DType::F32, {2}, {10, 20})));
  Context context;
  Result<Module> m = Module::parse(context,
                                   "h2d $x : f32[2]\nd2h $y : f32[2]\nvar %w : f32[2] = [1, 2]\n"
                                   "%x = host_load $x\n%s = add %w, %x\nhost_store $y, %s\nrun\nprint $y\n",
                                   "r.pir");
  ASSERT_TRUE(m) << m.error();
  std::ostringstream output;
  SessionOptions options;
  options.output = &output;
  options.passes = {"dce"};
  options.stopAtFirstError = true;
  options.alsoRead = {"s"};
  Result<Session> s = Session::create(context, *m, options);
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->runScript(ScriptData{{{"x", in}}, {{"s", out}}}));
  EXPECT_EQ(output.str(), "$y: f32[2] = [11, 22]\n");
  EXPECT_EQ(s->takeOutput(), "");
  ASSERT_TRUE(s->save("s", out, "--save s=" + out));
  Result<Tensor> saved = loadNpy(out);
  ASSERT_TRUE(saved) << saved.error();
  EXPECT_EQ(saved->toDoubles(), (std::vector<double>{11, 22}));
  Result<ProfileReports> profile = s->profileReports({.text = true, .json = true});
  ASSERT_TRUE(profile) << profile.error();
  EXPECT_FALSE(profile->text.empty());
  EXPECT_EQ(profile->json.rfind("{", 0), 0u);
  EXPECT_EQ(profile->timeline, "");
  Result<std::string> code = s->disassemble();
  ASSERT_TRUE(code) << code.error();
  EXPECT_NE(code->find("main"), std::string::npos) << *code;
  EXPECT_FALSE(s->disassemble("nope"));
  // A feed that names no stream fails before anything runs, located by the option.
  Result<Session> t = Session::create(context, *m);
  ASSERT_TRUE(t) << t.error();
  Status bad = t->runScript(ScriptData{{{"q", in}}, {}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("--feed q=" + in + ": unknown stream $q"), std::string::npos) << bad.error();
  EXPECT_EQ(t->takeOutput(), "");
  SessionOptions nope;
  nope.passes = {"nope"};
  Result<Session> u = Session::create(context, *m, nope);
  EXPECT_FALSE(u);
  std::filesystem::remove_all(dir);
}

TEST(Api, WhatAToolNeeds) {
  EXPECT_FALSE(version().empty());
  std::optional<std::string> matmul = opHelp("matmul");
  ASSERT_TRUE(matmul);
  EXPECT_NE(matmul->find("matmul"), std::string::npos);
  EXPECT_FALSE(opHelp("no_such_op"));
  EXPECT_NE(opReference().find("matmul"), std::string::npos);
  const std::vector<std::string> ops = opNames();
  EXPECT_NE(std::find(ops.begin(), ops.end(), "add"), ops.end());
  EXPECT_TRUE(keywordHelp("var"));
  EXPECT_FALSE(keywordHelp("matmul"));
  const std::vector<std::string> keywords = keywordNames();
  EXPECT_NE(std::find(keywords.begin(), keywords.end(), "var"), keywords.end());
  EXPECT_FALSE(keywordReference(true).empty());
  EXPECT_NE(didYouMean("matmol", ops).find("matmul"), std::string::npos);
  EXPECT_EQ(didYouMean("zzzzzzzz", {"add"}), "");
  EXPECT_EQ(parseByteSize("64M"), uint64_t(64) << 20);
  EXPECT_FALSE(parseByteSize("lots"));
  EXPECT_FALSE(interruptRequested());
  requestInterrupt();
  EXPECT_TRUE(interruptRequested());
  clearInterrupt();
  EXPECT_FALSE(interruptRequested());
  EXPECT_EQ(processCount(), 1);
}

}  // namespace
}  // namespace pir::api
