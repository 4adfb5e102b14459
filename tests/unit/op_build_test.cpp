// The typed side of the op table: enum attributes as C++ enums (ir/op_enums.h),
// typed attribute builders (ir/op_build.h) and the one resolved window of conv
// and the pools (ir/window.h).
#include <gtest/gtest.h>

#include <sstream>
#include <type_traits>

#include "frontend/builder.h"
#include "ir/op_attrs.h"
#include "ir/op_build.h"
#include "ir/printer.h"
#include "ir/rewriter.h"
#include "ir/verifier.h"
#include "ir/window.h"

namespace pir {
namespace {

// ---- compile-time properties ------------------------------------------------------

// A setter takes the spec type's C++ type; an enum attribute takes its enum.
static_assert(std::is_same_v<build::detail::Arg<OpCode::Sum, "keepdims">, bool>);
static_assert(std::is_same_v<build::detail::Arg<OpCode::Softmax, "axis">, int64_t>);
static_assert(std::is_same_v<build::detail::Arg<OpCode::AllReduce, "op">, CollectiveOp>);
static_assert(std::is_same_v<build::detail::Arg<OpCode::NllLoss, "reduction">, LossReduction>);
// A name the row does not declare takes a type nothing converts to.
static_assert(std::is_same_v<build::detail::Arg<OpCode::Softmax, "keepdims">, build::NotAnAttributeOf>);
template <class A>
concept TakesKeepdims = requires(A a) { a.keepdims(true); };
static_assert(TakesKeepdims<build::Sum>);
static_assert(!TakesKeepdims<build::Softmax>);  // a misspelt or foreign attribute does not compile
template <class A>
concept TakesOpWord = requires(A a) { a.op("max"); };
template <class A>
concept TakesOpEnum = requires(A a) { a.op(CollectiveOp::Max); };
static_assert(TakesOpEnum<build::AllReduce> && !TakesOpWord<build::AllReduce>);  // an enum is never a word
// The getters read enums too.
static_assert(std::is_same_v<decltype(std::declval<attrs::AllGather>().output_shape()), GatherShape>);
static_assert(std::is_same_v<decltype(std::declval<attrs::Init>().kind()), InitKind>);
// The words are the table's, in order.
static_assert(enumWord(CollectiveOp::SquareAdd) == "square_add");
static_assert(parseEnum<Retrieval>("all_replicas") == Retrieval::AllReplicas);
static_assert(!parseEnum<LossReduction>("avg"));

TEST(OpEnums, EveryWordRoundTripsAndTheTableListsThem) {
  for (size_t t = 0; t < std::size(kEnumTypes); ++t) {
    const EnumId id = static_cast<EnumId>(t);
    for (size_t i = 0; i < enumDesc(id).words.size(); ++i) EXPECT_EQ(enumIndex(id, enumDesc(id).words[i]), i);
  }
  const AttrSpec* op = opInfo(OpCode::ReduceScatter).findAttr("op");
  ASSERT_TRUE(op);
  EXPECT_EQ(op->enumType, EnumId::CollectiveOp);
  EXPECT_EQ(op->enumValues,
            (std::vector<std::string>{"add", "mean", "mul", "min", "max", "and", "or", "square_add"}));
  EXPECT_TRUE(op->defaultValue.isWord("add"));
}

// ---- through the front end and the rewriter ----------------------------------------

class OpBuildTest : public ::testing::Test {
 protected:
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream err;

  void SetUp() override { diags.setStream(&err); }
  bool build(const std::string& text) {
    uint32_t file = sm.add("t.pir", text);
    return buildFromBuffer(m, diags, file, ".").succeeded();
  }
  Op& lastOp() { return *m.main->ops.back(); }
};

TEST_F(OpBuildTest, TypedBuilderCreatesAnOpThatPrints) {
  ASSERT_TRUE(build("const %x : f32[2, 3] = 0\n")) << err.str();
  OpBuilder b(m, *m.main, diags);
  Value* x = m.main->lookup("x");
  Value* s = b.create1({x}, build::Sum{}.axis(1).keepdims(true), "s");
  EXPECT_EQ(s->type->str(), "f32[2,1]");
  EXPECT_EQ(printOp(*s->def), "%s = sum %x {axis = 1, keepdims = true} : f32[2,1]\n");
  Value* t = b.create1({x}, build::Sum{}.axis(std::vector<int64_t>{0, 1}), "t");
  EXPECT_EQ(printOp(*t->def), "%t = sum %x {axis = [0, 1]} : f32[]\n");
  Value* r = b.create1({x}, build::AllReduce{}.op(CollectiveOp::Max), "r");
  EXPECT_EQ(printOp(*r->def), "%r = replicated_all_reduce %x {op = max} : f32[2,3]\n");
  Op* parts = b.create({Operand::of(x)}, build::Split{}.splits({1, 2}).axis(1), {"p", "q"});
  EXPECT_EQ(printOp(*parts), "%p, %q = split %x {splits = [1, 2], axis = 1} : f32[2,1], f32[2,2]\n");
  EXPECT_TRUE(verifyModule(m, diags)) << err.str();
}

TEST_F(OpBuildTest, EnumAttributeRoundTrips) {
  ASSERT_TRUE(build("const %x : f32[4] = 1\n%r = replicated_all_reduce %x {op = square_add}\n"
                    "%z = init {shape = [2], dtype = f32, kind = undef}\n")) << err.str();
  const Op& reduce = *m.main->lookup("r")->def;
  EXPECT_EQ(attrs::AllReduce{reduce}.op(), CollectiveOp::SquareAdd);
  EXPECT_EQ(printOp(reduce), "%r = replicated_all_reduce %x {op = square_add} : f32[4]\n");
  EXPECT_EQ(attrs::Init{*m.main->lookup("z")->def}.kind(), InitKind::Undef);
  // The default reads as its enumerator and is not printed.
  ASSERT_TRUE(build("%d = replicated_all_reduce %x\n")) << err.str();
  EXPECT_EQ(attrs::AllReduce{lastOp()}.op(), CollectiveOp::Add);
  EXPECT_EQ(printOp(lastOp()), "%d = replicated_all_reduce %x : f32[4]\n");
}

TEST_F(OpBuildTest, UnknownEnumWordIsALocatedErrorListingTheWords) {
  ASSERT_TRUE(build("const %x : f32[4] = 1\n")) << err.str();
  EXPECT_FALSE(build("%r = replicated_all_reduce %x {op = maxx}\n"));
  EXPECT_NE(err.str().find("t.pir:1:37: error: replicated_all_reduce: attribute 'op' must be one of add, mean, mul, "
                           "min, max, and, or, square_add"),
            std::string::npos)
      << err.str();
}

// ---- the window -----------------------------------------------------------------------

TEST_F(OpBuildTest, WindowSpreadsScalarsAndAppliesTheDefaults) {
  ASSERT_TRUE(build("const %x : f32[1, 1, 6, 8] = 0\nconst %w : f32[2, 1, 3, 3] = 0\n"
                    "%p = max_pool %x {kernel = 2, padding = [1, 0, 1, 0]}\n"
                    "%c = conv %x, %w {stride = 2, dilation = [1, 2]}\n")) << err.str();
  std::optional<WindowFault> fault;
  const Window pool = resolveWindow(*m.main->lookup("p")->def, 2, nullptr, fault);
  EXPECT_FALSE(fault);
  EXPECT_EQ(pool.kernel, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(pool.stride, (std::vector<int64_t>{2, 2}));  // a pool strides by its kernel
  EXPECT_EQ(pool.dilation, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(pool.padding(), (std::vector<int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(pool.axis(0, 6).length, 4);  // (6 + 1 + 1 - 2) / 2 + 1
  EXPECT_EQ(m.main->lookup("p")->type->str(), "f32[1,1,4,4]");
  const std::vector<int64_t> kernel{3, 3};
  const Window conv = resolveWindow(*m.main->lookup("c")->def, 2, &kernel, fault);
  EXPECT_FALSE(fault);
  EXPECT_EQ(conv.stride, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(conv.dilation, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(conv.padding(), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(conv.axis(1, 8).extent, 5);
  EXPECT_EQ(m.main->lookup("c")->type->str(), "f32[1,2,2,2]");
}

TEST_F(OpBuildTest, WindowFaultsAreReportedAtTheAttribute) {
  ASSERT_TRUE(build("const %x : f32[1, 1, 6, 8] = 0\n")) << err.str();
  EXPECT_FALSE(build("%p = max_pool %x {kernel = [2, 2], stride = [1, 1, 1]}\n"));
  EXPECT_NE(err.str().find("t.pir:1:45: error: max_pool: attribute 'stride' needs 2 values, got [1,1,1]"),
            std::string::npos)
      << err.str();
}

}  // namespace
}  // namespace pir
