// The IR mutation API (ir/rewriter.h): builder, insert/erase, clone, RAUW,
// uses, journaled undo of in-place changes, generations, and that the
// transformed IR prints, verifies and runs.
#include <gtest/gtest.h>

#include <sstream>

#include "frontend/builder.h"
#include "ir/compact_list.h"
#include "ir/context.h"
#include "ir/printer.h"
#include "ir/result_list.h"
#include "ir/small_name.h"
#include "ir/rewriter.h"
#include "ir/verifier.h"
#include "api/session_driver.h"
#include "vm/session.h"

namespace pir {
namespace {

class RewriterTest : public ::testing::Test {
 protected:
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Module m;
  std::ostringstream err;

  void SetUp() override { diags.setStream(&err); }

  void build(const std::string& text) {
    uint32_t file = sm.add("t.pir", text);
    ASSERT_TRUE(buildFromBuffer(m, diags, file, ".")) << err.str();
  }
  Graph& graph(const std::string& name) { return name == "main" ? *m.main : *m.findGraph(name); }
  Value* value(const std::string& graphName, const std::string& name) { return graph(graphName).lookup(name); }
  // Runs the module's main graph once and prints `names`.
  std::string run(const std::vector<std::string>& names) {
    std::ostringstream out;
    vm::Session s(m, diags, out);
    EXPECT_TRUE(s.run()) << err.str();
    for (auto& n : names) EXPECT_TRUE(s.print(n, {})) << err.str();
    return out.str();
  }
  void expectValid() { EXPECT_TRUE(verifyModule(m, diags)) << err.str() << printModule(m); }
};

constexpr const char* kProgram = R"(graph @f(%x: f32[2], %w: f32[2]) -> (f32[2]) {
  %y = mul %x, %w
  return %y
}
main {
  const %a : f32[2] = [1, 2]
  const %b : f32[2] = [3, 4]
  %c = call @f(%a, %b)
  %d = add %c, %a
}
)";

TEST_F(RewriterTest, CreateInfersTypesNamesResultsAndVerifies) {
  build(kProgram);
  OpBuilder b(m, *m.main, diags);
  Value* e = b.create1(OpCode::Mul, {value("main", "d"), value("main", "d")}, {}, "e");
  EXPECT_EQ(e->name, "e");
  EXPECT_EQ(e->type->str(), "f32[2]");
  Value* anon = b.create1(OpCode::Neg, {e});
  EXPECT_TRUE(anon->generatedName);
  EXPECT_EQ(m.main->lookup(anon->name), anon);
  // A taken name gets a suffix, never a redefinition.
  Value* again = b.create1(OpCode::Neg, {e}, {}, "e");
  EXPECT_EQ(again->name, "e.1");
  expectValid();
  EXPECT_EQ(run({"%e"}), "%e: f32[2] = [16, 100]\n");
  // An op that does not verify is reported and not inserted.
  const size_t before = m.main->ops.size();
  Value* i = b.constant(TensorType{DType::I32, {3}}, {1, 2, 3}, "i");
  EXPECT_THROW(b.create1(OpCode::Add, {e, i}), CompileError);
  EXPECT_EQ(m.main->ops.size(), before + 1);
  EXPECT_NE(err.str().find("add: operand types f32[2] and i32[3] have different dtypes"), std::string::npos) << err.str();
}

TEST_F(RewriterTest, InsertionPointBeforeAndAfter) {
  build(kProgram);
  Op* call = value("main", "c")->def;
  OpBuilder b(m, *m.main, diags);
  b.setInsertionPoint(call);
  Value* s = b.create1(OpCode::Sub, {value("main", "b"), value("main", "a")}, {}, "s");
  b.setInsertionPointAfter(call);
  Value* t = b.create1(OpCode::Mul, {value("main", "c"), s}, {}, "t");
  ASSERT_EQ(positionOf(*s->def) + 1, positionOf(*call));
  ASSERT_EQ(positionOf(*t->def), positionOf(*call) + 1);
  expectValid();
  EXPECT_EQ(run({"%t"}), "%t: f32[2] = [6, 16]\n");
}

TEST_F(RewriterTest, ReplaceAllUsesAndEraseKeepResults) {
  build(kProgram);
  OpBuilder b(m, *m.main, diags);
  b.setInsertionPoint(value("main", "d")->def);
  Value* twice = b.create1(OpCode::Add, {value("main", "a"), value("main", "a")}, {}, "twice");
  Value* c = value("main", "c");
  EXPECT_EQ(UseMap(*m.main).uses(c).size(), 1u);
  EXPECT_EQ(replaceAllUsesWith(m, c, twice), 1u);
  EXPECT_FALSE(UseMap(*m.main).hasUses(c));
  eraseOp(m, *c->def);
  EXPECT_EQ(m.main->lookup("c"), nullptr);
  expectValid();
  EXPECT_EQ(printModule(m).find("call @f"), std::string::npos);
  EXPECT_EQ(run({"%d"}), "%d: f32[2] = [3, 6]\n");
  // Erasing an op whose result is still used is a pass bug, caught.
  EXPECT_THROW(eraseOp(m, *twice->def), std::logic_error);
}

TEST_F(RewriterTest, CloneGraphWithValueMapAndCallTheClone) {
  build(kProgram);
  IRMapping map;
  Graph* copy = cloneGraph(m, graph("f"), "f", &map);
  EXPECT_EQ(copy->name, "f.1");  // the name was taken
  EXPECT_EQ(map.lookup(graph("f").params[0]), copy->params[0]);
  EXPECT_EQ(map.lookup(value("f", "y"))->graph, copy);
  EXPECT_EQ(copy->lookup("y"), map.lookup(value("f", "y")));
  OpBuilder b(m, *m.main, diags);
  Op* call = b.createCall(*copy, {Operand::of(value("main", "b")), Operand::of(value("main", "b"))}, {"sq"});
  EXPECT_EQ(call->callees[0].graph, copy);
  expectValid();
  std::string text = printModule(m);
  EXPECT_NE(text.find("graph @f.1(%x: f32[2], %w: f32[2]) -> (f32[2]) {\n  %y = mul %x, %w : f32[2]\n  return %y\n}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("%sq = call @f.1(%b, %b) : f32[2]"), std::string::npos) << text;
  EXPECT_EQ(run({"%sq"}), "%sq: f32[2] = [9, 16]\n");
}

TEST_F(RewriterTest, ClonedModuleIsIndependentAndKeepsIdentities) {
  build(kProgram);
  std::unique_ptr<Module> copy = m.clone();
  EXPECT_EQ(printModule(*copy), printModule(m));
  EXPECT_EQ(copy->main->lookup("d")->uid, m.main->lookup("d")->uid);
  EXPECT_NE(copy->main->lookup("d"), m.main->lookup("d"));
  EXPECT_EQ(copy->main->lookup("c")->def->callees[0].graph, copy->findGraph("f"));
  OpBuilder b(*copy, *copy->main, diags);
  b.create1(OpCode::Neg, {copy->main->lookup("d")}, {}, "n");
  EXPECT_EQ(m.main->lookup("n"), nullptr);
  EXPECT_TRUE(verifyModule(*copy, diags)) << err.str();
}

TEST_F(RewriterTest, RollbackUndoesInPlaceChangesToExistingGraphs) {
  build(kProgram);
  const std::string before = printModule(m);
  const uint64_t generation = m.generation;
  Module::Checkpoint cp = m.checkpoint();
  // What autodiff does to a forward graph: new ops and a new output.
  Graph& f = graph("f");
  OpBuilder b(m, f, diags);
  Value* act = b.create1(OpCode::Exp, {value("f", "x")}, {}, "act");
  addReturn(m, f, Operand::of(act));
  // And what a pass does elsewhere: RAUW, erase, rename, a new graph.
  Value* c = value("main", "c");
  OpBuilder mb(m, *m.main, diags);
  mb.setInsertionPoint(c->def);
  Value* z = mb.create1(OpCode::Add, {value("main", "a"), value("main", "b")}, {}, "z");
  replaceAllUsesWith(m, c, z);
  renameValue(m, *value("main", "a"), "a_renamed");
  Graph* g2 = createGraph(m, "g2");
  addParam(m, *g2, "p", TensorType{DType::F32, {}});
  setReturns(m, *g2, {Operand::of(g2->params[0])});
  EXPECT_GT(m.generation, generation);
  EXPECT_NE(printModule(m), before);
  m.rollback(cp);
  EXPECT_EQ(printModule(m), before);
  expectValid();
  EXPECT_EQ(run({"%d"}), "%d: f32[2] = [4, 10]\n");
  EXPECT_GT(m.generation, generation);  // never goes back: bytecode of the undone state is stale
}

// A graph built outside the module (the builder's header, before it is added)
// did not exist at the checkpoint: its changes are not journaled, so a rollback
// neither undoes them nor touches the graph after its builder dropped it.
TEST_F(RewriterTest, ChangesToAGraphOutsideTheModuleAreNotJournaled) {
  build(kProgram);
  const std::string before = printModule(m);
  Module::Checkpoint cp = m.checkpoint();
  auto loose = std::make_unique<Graph>();
  loose->name = "loose";
  loose->index = static_cast<unsigned>(m.graphs.size());
  EXPECT_FALSE(m.owns(*loose));
  EXPECT_TRUE(m.owns(*m.main));
  EXPECT_TRUE(m.owns(graph("f")));
  Value* p = newValue(m, *loose, Value::Kind::Param, "p", false, TensorType{DType::F32, {2}}, {});
  m.rollback(cp);
  EXPECT_EQ(loose->lookup("p"), p);  // not undone: the graph was never the module's
  // Dropped before the rollback (a failed header): the rollback must not reach it.
  Module::Checkpoint cp2 = m.checkpoint();
  newValue(m, *loose, Value::Kind::Param, "q", false, TensorType{DType::F32, {2}}, {});
  loose.reset();
  m.rollback(cp2);
  EXPECT_EQ(printModule(m), before);
}

TEST_F(RewriterTest, RollbackRestoresErasedOpsAndGraphsInPlace) {
  build(kProgram);
  const std::string before = printModule(m);
  Module::Checkpoint cp = m.checkpoint();
  Value* d = value("main", "d");
  eraseOp(m, *d->def);
  Value* c = value("main", "c");
  eraseOp(m, *c->def);
  eraseGraph(m, graph("f"));
  EXPECT_EQ(m.findGraph("f"), nullptr);
  m.rollback(cp);
  EXPECT_EQ(printModule(m), before);
  EXPECT_EQ(value("main", "c")->def->callees[0].graph, m.findGraph("f"));
  expectValid();
}

// eraseGraphs takes several graphs out in one change; rollback puts each back
// at its position, in scope, with its index.
TEST_F(RewriterTest, ErasingSeveralGraphsAtOnceIsUndoneInPlace) {
  build(R"(graph @a(%x: f32[]) -> (f32[]) {
  %y = neg %x
  return %y
}
graph @b(%x: f32[]) -> (f32[]) {
  %y = exp %x
  return %y
}
graph @c(%x: f32[]) -> (f32[]) {
  %y = sin %x
  return %y
}
graph @d(%x: f32[]) -> (f32[]) {
  %y = cos %x
  return %y
}
)");
  const std::string before = printModule(m);
  Module::Checkpoint cp = m.checkpoint();
  eraseGraphs(m, {&graph("a"), &graph("c")});
  ASSERT_EQ(m.graphs.size(), 2u);
  EXPECT_EQ(m.graphs[0]->name, "b");
  EXPECT_EQ(m.graphs[1]->name, "d");
  EXPECT_EQ(m.graphs[1]->index, 1u);
  EXPECT_EQ(m.findGraph("a"), nullptr);
  EXPECT_EQ(m.findGraph("c"), nullptr);
  m.rollback(cp);
  EXPECT_EQ(printModule(m), before);
  for (size_t i = 0; i < m.graphs.size(); ++i) {
    EXPECT_EQ(m.graphs[i]->index, i);
    EXPECT_EQ(m.findGraph(m.graphs[i]->name), m.graphs[i].get());
  }
  expectValid();
}

TEST_F(RewriterTest, ExchangeBlocksWrapAndUnwrap) {
  build(R"(h2d $x : f32[2]
h2d $y : f32[2]
d2h $o : f32[2]
%a = host_load $x
%b = host_load $y
%c = add %a, %b
host_store $o, %c
)");
  Op* first = value("main", "a")->def;
  Op* second = value("main", "b")->def;
  Module::Checkpoint cp = m.checkpoint();
  const std::string before = printModule(m);
  Op* block = wrapInExchange(m, *first, *second);
  EXPECT_EQ(block->region().size(), 2u);
  EXPECT_EQ(first->enclosing(), block);
  expectValid();
  EXPECT_NE(printModule(m).find("  exchange {\n    %a = host_load $x : f32[2]\n    %b = host_load $y : f32[2]\n  }\n"),
            std::string::npos)
      << printModule(m);
  m.rollback(cp);
  EXPECT_EQ(printModule(m), before);
  EXPECT_EQ(first->enclosing(), nullptr);
}

TEST_F(RewriterTest, ConditionalAndRepeatBuildWithFlatOperands) {
  build(R"(graph @inc(%i: f32[], %s: f32[]) -> (f32[]) {
  %n = add %i, %s
  return %n
}
graph @neg(%v: f32[], %s: f32[]) -> (f32[]) {
  %n = neg %v
  return %n
}
const %zero : f32[] = 0
const %step : f32[] = 2
const %t : bool[] = true
)");
  OpBuilder b(m, *m.main, diags);
  Op* rep = b.createRepeat(graph("inc"), {Operand::of(value("main", "zero")), Operand::of(value("main", "step"))}, 5,
                           {"r"});
  EXPECT_EQ(rep->callees[0].numArgs, 2u);
  Op* cond = b.createConditional(Operand::of(value("main", "t")), graph("neg"),
                                 {Operand::of(rep->results[0]), Operand::of(value("main", "step"))}, graph("inc"),
                                 {Operand::of(rep->results[0]), Operand::of(value("main", "step"))}, {"k"});
  EXPECT_EQ(cond->callees[1].firstOperand, 3u);
  EXPECT_EQ(cond->calleeOfOperand(0), -1);
  EXPECT_EQ(cond->calleeOfOperand(4), 1);
  expectValid();
  std::string text = printModule(m);
  EXPECT_NE(text.find("%k = conditional %t, @neg(%r, %step), @inc(%r, %step) : f32[]"), std::string::npos) << text;
  EXPECT_EQ(run({"%k"}), "%k: f32[] = -10\n");
}

TEST_F(RewriterTest, ParamsWrittenInPlaceFollowAliasesAndCallees) {
  build(R"(graph @w(%t: &f32[2], %u: f32[2]) -> () {
  %v = reshape_ %t {shape = [2]}
  add_ %v, %u
  return
}
graph @outer(%p: &f32[2], %q: &f32[2]) -> () {
  call @w(%p, %q)
  return
}
)");
  EXPECT_EQ(paramsWrittenInPlace(graph("w")), (std::vector<bool>{true, false}));
  EXPECT_EQ(paramsWrittenInPlace(graph("outer")), (std::vector<bool>{true, false}));
}

TEST_F(RewriterTest, SessionRecompilesAfterAnInPlaceRewrite) {
  build(kProgram);
  std::ostringstream out;
  vm::Session s(m, diags, out);
  ASSERT_TRUE(s.run());
  ASSERT_TRUE(s.print("%d", {}));
  // Same op count, different op: pointer-prefix checks would miss this.
  Value* c = value("main", "c");
  OpBuilder b(m, *m.main, diags);
  b.setInsertionPoint(c->def);
  Value* z = b.create1(OpCode::Sub, {value("main", "a"), value("main", "b")}, {}, "z");
  replaceAllUsesWith(m, c, z);
  eraseOp(m, *c->def);
  ASSERT_TRUE(s.run());
  ASSERT_TRUE(s.print("%d", {}));
  EXPECT_EQ(out.str(), "%d: f32[2] = [4, 10]\n%d: f32[2] = [-1, 0]\n");
}

// An op's result list keeps its first result inline and moves to the heap from
// the second on; copies, moves and the list operations see the same items.
TEST(ResultList, InlineFirstResultThenHeap) {
  Value a, b, c;
  ResultList list;
  EXPECT_TRUE(list.empty());
  list.push_back(&a);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0], &a);
  ResultList one = list;  // an inline copy
  list.push_back(&b);
  list.push_back(&c);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list.front(), &a);
  EXPECT_EQ(list.back(), &c);
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(one.at(0), &a);
  EXPECT_THROW((void)one.at(1), std::out_of_range);
  ResultList moved = std::move(list);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(std::vector<Value*>(moved.begin(), moved.end()), (std::vector<Value*>{&a, &b, &c}));
  ResultList movedInline = std::move(one);
  EXPECT_EQ(movedInline.size(), 1u);
  EXPECT_EQ(movedInline[0], &a);
  movedInline = moved;  // inline -> heap copy
  moved.pop_back();
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_EQ(movedInline.size(), 3u);
  moved = {&c};
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0], &c);
}

// A heap result list stays on the heap when it shrinks to one item, and a
// reserved list takes its items in order; copies are independent.
TEST(ResultList, ShrunkHeapListAndReserve) {
  Value a, b;
  ResultList list;
  list.reserve(4);
  list.push_back(&a);
  list.push_back(&b);
  list.pop_back();
  ResultList copy = list;
  list[0] = &b;
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_EQ(copy[0], &a);
  EXPECT_EQ(list[0], &b);
  list.clear();
  list.push_back(&a);
  list.push_back(&b);
  EXPECT_EQ(std::vector<Value*>(list.begin(), list.end()), (std::vector<Value*>{&a, &b}));
  list = std::move(copy);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0], &a);
  EXPECT_TRUE(copy.empty());
}

// An op's operand list: grows, inserts and erases in place, converts from and
// to std::vector, and its copies are deep (an operand's payload is its own).
TEST(CompactList, OperandsKeepOrderThroughEdits) {
  static_assert(sizeof(CompactList<Operand>) == 16);
  Value a, b, c;
  CompactList<Operand> list;
  EXPECT_TRUE(list.empty());
  list.push_back(Operand::of(&a));
  list.push_back(Operand::of(&c));
  list.insert(list.begin() + 1, Operand::of(&b));
  auto values = [](const CompactList<Operand>& l) {
    std::vector<Value*> out;
    for (const Operand& o : l) out.push_back(o.value());
    return out;
  };
  EXPECT_EQ(values(list), (std::vector<Value*>{&a, &b, &c}));
  for (int i = 0; i < 40; ++i) list.push_back(list[0]);  // an item of the list itself, across growth
  EXPECT_EQ(list.size(), 43u);
  EXPECT_EQ(list.back().value(), &a);
  list.resize(3);
  list.erase(list.begin());
  EXPECT_EQ(values(list), (std::vector<Value*>{&b, &c}));
  EXPECT_THROW((void)list.at(2), std::out_of_range);

  Operand literal;
  literal.setKind(Operand::Kind::Literal);
  literal.setLiteralType(TensorType{DType::I32, {3}});
  list.push_back(literal);
  CompactList<Operand> copy = list;
  list[2].setLiteralType(TensorType{DType::F32, {}});
  EXPECT_EQ(copy[2].literalType(), (TensorType{DType::I32, {3}}));
  std::vector<Operand> asVector = copy.toVector();
  ASSERT_EQ(asVector.size(), 3u);
  EXPECT_EQ(asVector[1].value(), &c);
  CompactList<Operand> fromVector = std::move(asVector);
  EXPECT_EQ(values(fromVector), (std::vector<Value*>{&b, &c, nullptr}));
  CompactList<Operand> moved = std::move(copy);
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(moved.size(), 3u);
  moved = {Operand::of(&a)};
  EXPECT_EQ(values(moved), (std::vector<Value*>{&a}));
}

// An operand's one word is its value or its payload: value() is nullptr for a
// resource or literal operand, setting a resource or literal makes a value
// operand one, copies own their payloads, and a kind change that crosses
// value / non-value drops what the word held.
TEST(Operand, ValueOrPayloadInOneWord) {
  static_assert(sizeof(Operand) == 16);
  Value v;
  Resource r{Resource::Kind::H2D, "x", TensorType{}, 1, false, {}, 0};
  Operand o = Operand::of(&v);
  EXPECT_EQ(o.kind(), Operand::Kind::Value);
  EXPECT_EQ(o.value(), &v);
  EXPECT_EQ(o.resource(), nullptr);
  o.setResource(&r);
  EXPECT_EQ(o.kind(), Operand::Kind::Resource);
  EXPECT_EQ(o.value(), nullptr);
  EXPECT_EQ(o.resource(), &r);
  o.setKind(Operand::Kind::Literal);  // the payload stays
  EXPECT_EQ(o.resource(), &r);
  o.setLiteralType(TensorType{DType::I32, {2}});
  Operand copy = o;
  o.setLiteralType(TensorType{DType::F32, {}});
  EXPECT_EQ(copy.literalType(), (TensorType{DType::I32, {2}}));
  EXPECT_EQ(copy.resource(), &r);
  o.setValue(&v);  // drops the payload
  EXPECT_EQ(o.kind(), Operand::Kind::Value);
  EXPECT_EQ(o.value(), &v);
  EXPECT_EQ(o.resource(), nullptr);
  EXPECT_EQ(o.literalType(), TensorType{});
  o.setKind(Operand::Kind::Literal);
  EXPECT_EQ(o.value(), nullptr);
  EXPECT_EQ(o.literal(), nullptr);
  o = copy;
  EXPECT_EQ(o.literalType(), (TensorType{DType::I32, {2}}));
  Operand moved = std::move(copy);
  EXPECT_EQ(moved.resource(), &r);
  copy = Operand::of(nullptr);
  EXPECT_EQ(copy.kind(), Operand::Kind::Value);
  EXPECT_EQ(copy.value(), nullptr);
}

// An op is charged when made and its uses when charged (past 65534 of them the
// count moves out of line); a move takes the uses' charge along, a refused
// charge changes nothing, and all of it is given back with the op.
TEST(OpCharge, UsesAreGivenBackWithTheOp) {
  Context context;
  ContextScope scope(context);
  const uint64_t before = context.memory().inUse();
  {
    auto op = std::make_unique<Op>();
    EXPECT_EQ(context.memory().inUse(), before + opHostBytes());
    op->chargeUses(65534);
    EXPECT_EQ(op->chargedUses(), 65534u);
    op->chargeUses(10);
    EXPECT_EQ(op->chargedUses(), 65544u);
    EXPECT_EQ(context.memory().inUse(), before + opHostBytes() + 65544 * operandHostBytes());
    Op moved(std::move(*op));
    EXPECT_EQ(moved.chargedUses(), 65544u);
    EXPECT_EQ(op->chargedUses(), 0u);
    EXPECT_EQ(context.memory().inUse(), before + 2 * opHostBytes() + 65544 * operandHostBytes());
    op.reset();
    EXPECT_EQ(context.memory().inUse(), before + opHostBytes() + 65544 * operandHostBytes());
    context.memory().setLimit(context.memory().inUse() + 100);
    EXPECT_THROW(moved.chargeUses(1000), HostMemoryExhausted);
    EXPECT_EQ(moved.chargedUses(), 65544u);
    EXPECT_THROW(Op{}, HostMemoryExhausted);
  }
  EXPECT_EQ(context.memory().inUse(), before);
}

// An operand packs its location into the word beside its value; a file, line
// or column beyond the packed range moves the location into the payload, and
// every location reads back exactly through copies, moves and kind changes.
TEST(Operand, LocationsBeyondThePackedRangeStayExact) {
  Value v, w;
  Resource r{Resource::Kind::H2D, "x", TensorType{}, 1, false, {}, 0};
  const SourceLoc small{3, 70000, 123};
  const SourceLoc edge{32767, (1u << 24) - 1, (1u << 22) - 1};
  const std::vector<SourceLoc> beyond = {{32768, 1, 1}, {1, 1u << 24, 1}, {1, 1, 1u << 22}, {UINT32_MAX, UINT32_MAX, UINT32_MAX}};
  auto same = [](SourceLoc a, SourceLoc b) { return a.file == b.file && a.line == b.line && a.col == b.col; };
  Operand o = Operand::of(&v, small);
  EXPECT_TRUE(same(o.loc(), small));
  o.setLoc(edge);
  EXPECT_TRUE(same(o.loc(), edge));
  EXPECT_EQ(o.value(), &v);
  for (const SourceLoc& at : beyond) {
    Operand far = Operand::of(&v, at);
    EXPECT_TRUE(same(far.loc(), at));
    EXPECT_EQ(far.value(), &v);
    EXPECT_EQ(far.resource(), nullptr);
    Operand copy = far;
    far.setValue(&w);
    EXPECT_EQ(copy.value(), &v);
    EXPECT_EQ(far.value(), &w);
    EXPECT_TRUE(same(copy.loc(), at));
    far.setResource(&r);  // the value goes, the location stays
    EXPECT_EQ(far.value(), nullptr);
    EXPECT_EQ(far.resource(), &r);
    EXPECT_TRUE(same(far.loc(), at));
    far.setLoc(small);  // back inline, the payload kept for the resource
    EXPECT_EQ(far.resource(), &r);
    EXPECT_TRUE(same(far.loc(), small));
    far.setLoc(at);
    far.setValue(&v);
    EXPECT_EQ(far.resource(), nullptr);
    EXPECT_TRUE(same(far.loc(), at));
    Operand moved = std::move(copy);
    EXPECT_EQ(moved.value(), &v);
    EXPECT_TRUE(same(moved.loc(), at));
    moved.setLoc(small);  // back inline: the value returns to the word
    EXPECT_EQ(moved.value(), &v);
    EXPECT_TRUE(same(moved.loc(), small));
  }
}

// A null result is an item like any other (it is kept on the heap, since the
// inline slot's null is the empty list).
TEST(ResultList, NullItemsAreItems) {
  static_assert(sizeof(ResultList) == 8);
  Value a;
  ResultList list;
  list.push_back(nullptr);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0], nullptr);
  ResultList copy = list;
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_EQ(copy[0], nullptr);
  list.push_back(&a);
  EXPECT_EQ(std::vector<Value*>(list.begin(), list.end()), (std::vector<Value*>{nullptr, &a}));
  ResultList one = {&a};
  one = copy;
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], nullptr);
}

// An op with an out-of-line part keeps its budget there: moved to an op of
// another context, each op gives its charge back to its own context.
TEST(OpCharge, AnOpWithExtrasKeepsItsBudget) {
  Context first, second;
  const uint64_t firstBefore = first.memory().inUse(), secondBefore = second.memory().inUse();
  {
    std::unique_ptr<Op> op;
    {
      ContextScope scope(first);
      op = std::make_unique<Op>();
      op->setLabel("fwd0");
      op->chargeUses(3);
    }
    EXPECT_EQ(first.memory().inUse(), firstBefore + opHostBytes() + 3 * operandHostBytes());
    {
      ContextScope scope(second);
      Op moved(std::move(*op));
      EXPECT_EQ(std::string(moved.label()), "fwd0");
      EXPECT_TRUE(op->label().empty());
      EXPECT_EQ(moved.chargedUses(), 3u);
      EXPECT_EQ(first.memory().inUse(), firstBefore + opHostBytes());
      EXPECT_EQ(second.memory().inUse(), secondBefore + opHostBytes() + 3 * operandHostBytes());
      op->setLabel("again");  // the moved-from op makes a part of its own, charged to its own context
      EXPECT_EQ(std::string(op->label()), "again");
    }
    EXPECT_EQ(second.memory().inUse(), secondBefore);
  }
  EXPECT_EQ(first.memory().inUse(), firstBefore);
}

// A value name keeps up to 15 bytes inline and a longer one on the heap; both
// read back exactly, compare by text with each other and with strings, and
// survive copies, moves and self-assignment.
TEST(SmallName, ShortAndLongNames) {
  static_assert(sizeof(SmallName) == 16);
  const std::string fifteen = "abcdefghijklmno";
  const std::string sixteen = "abcdefghijklmnop";
  SmallName empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.view(), "");
  SmallName shortName(fifteen);
  SmallName longName(sixteen);
  EXPECT_TRUE(shortName.isInline());
  EXPECT_FALSE(longName.isInline());
  EXPECT_EQ(shortName.size(), 15u);
  EXPECT_EQ(longName.size(), 16u);
  EXPECT_EQ(shortName, fifteen);
  EXPECT_EQ(longName, sixteen);
  EXPECT_FALSE(shortName == longName);
  EXPECT_FALSE(longName == fifteen);
  EXPECT_EQ("%" + longName, "%" + sixteen);
  EXPECT_EQ(std::string(shortName), fifteen);
  EXPECT_LT(shortName, longName);

  SmallName copy = longName;  // a copy owns its own block
  longName = "x";
  EXPECT_TRUE(longName.isInline());
  EXPECT_EQ(longName, "x");
  EXPECT_EQ(copy, sixteen);
  SmallName moved = std::move(copy);
  EXPECT_EQ(moved, sixteen);
  EXPECT_TRUE(copy.empty());
  const SmallName& self = moved;
  moved = self;  // self-assignment keeps the text
  EXPECT_EQ(moved, sixteen);
  moved = std::string_view(moved).substr(1);  // assigning a part of its own text
  EXPECT_EQ(moved, sixteen.substr(1));
  EXPECT_TRUE(moved.isInline());

  const std::string embedded("a\0b", 3);  // bytes, not a C string
  SmallName withNul(embedded);
  EXPECT_EQ(withNul.size(), 3u);
  EXPECT_EQ(withNul, embedded);
  EXPECT_EQ(std::hash<SmallName>()(SmallName(sixteen)), std::hash<std::string_view>()(sixteen));
}

// Values are charged to their graph's account: what a statement's values take
// is given back when a rollback truncates them and when the module goes.
TEST(ValueCharge, FollowsTheGraphsValues) {
  Context context;
  ContextScope scope(context);
  const uint64_t before = context.memory().inUse();
  {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    std::ostringstream err;
    diags.setStream(&err);
    Module m;
    ASSERT_TRUE(buildFromBuffer(m, diags, sm.add("a.pir", "const %a : f32[2] = [1, 2]\n"), ".")) << err.str();
    const uint64_t withA = context.memory().inUse();
    Module::Checkpoint cp = m.checkpoint();
    ASSERT_TRUE(buildFromBuffer(m, diags, sm.add("b.pir", "%b = add %a, %a\n%c = mul %b, %a\n"), ".")) << err.str();
    EXPECT_GE(context.memory().inUse(), withA + 2 * valueHostBytes());
    m.rollback(cp);
    EXPECT_EQ(context.memory().inUse(), withA);  // the two values and their ops given back
    {
      std::unique_ptr<Module> copy = m.clone();
      EXPECT_GE(context.memory().inUse(), withA + valueHostBytes());
    }
    EXPECT_EQ(context.memory().inUse(), withA);
  }
  EXPECT_EQ(context.memory().inUse(), before);
}

}  // namespace
}  // namespace pir
