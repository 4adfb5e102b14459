// The public C++ API (include/pir/pir.h): parse, print, verify, build, passes,
// sessions, tensors and NPY, through the API alone.
#include "pir/pir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

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

}  // namespace
}  // namespace pir::api
