// Result-type rules (ir/infer.h) and the op table (ir/op_info.h), on ops built
// directly, without the parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ir/infer.h"
#include "ir/verifier.h"

namespace pir {
namespace {

TensorType T(DType d, Shape s) { return TensorType{d, std::move(s)}; }
TensorType F32(Shape s) { return T(DType::F32, std::move(s)); }
Attr ints(std::vector<int64_t> v) {
  std::vector<Attr> items;
  for (auto x : v) items.push_back(Attr::integer(x));
  return Attr::list(std::move(items));
}

class InferTest : public ::testing::Test {
 protected:
  SourceManager sm;
  DiagnosticEngine diags{sm};
  Graph graph;
  IrOptions options;
  std::vector<std::unique_ptr<Op>> ops;
  std::vector<std::unique_ptr<Resource>> resources;

  Value* value(TensorType t, std::string name = "") {
    auto v = std::make_unique<Value>();
    v->name = name;
    if (v->name.empty()) v->name = "v" + std::to_string(graph.values.size());
    v->type = std::move(t);
    v->graph = &graph;
    v->id = static_cast<unsigned>(graph.values.size());
    graph.values.push_back(std::move(v));
    return graph.values.back().get();
  }
  Op& op(OpCode code, std::vector<TensorType> inputs, AttrDict attrs = {}) {
    auto o = std::make_unique<Op>();
    o->code = code;
    o->attrs = std::move(attrs);
    o->parent = &graph;
    for (auto& t : inputs) {
      Operand operand;
      operand.setKind(Operand::Kind::Value);
      operand.setValue(value(t));
      o->operands.push_back(operand);
    }
    ops.push_back(std::move(o));
    return *ops.back();
  }
  // Verifies and infers; returns the result types, or {} with `error` set.
  std::vector<TensorType> infer(Op& o) {
    std::vector<TensorType> types;
    error.clear();
    try {
      verifyOp(o, options, types, diags);
    } catch (const CompileError& e) {
      error = e.diag.message;
      return {};
    }
    return types;
  }
  std::vector<TensorType> infer(OpCode code, std::vector<TensorType> inputs, AttrDict attrs = {}) {
    return infer(op(code, std::move(inputs), std::move(attrs)));
  }
  static AttrDict attrs(std::vector<std::pair<std::string, Attr>> entries) {
    AttrDict d;
    d.entries = std::move(entries);
    return d;
  }
  std::string error;
};

TEST(OpTable, EveryRowParsesAndNamesResolve) {
  // Walks every row: spec strings parse (a malformed one aborts), names are found.
  for (int i = 0; i < kNumOpCodes; ++i) {
    const OpInfo& info = opInfo(static_cast<OpCode>(i));
    EXPECT_EQ(static_cast<int>(info.code), i);
    if (info.has(F_DECL) || info.has(F_REGION)) {
      EXPECT_FALSE(lookupOp(info.name)) << info.name;
      continue;
    }
    auto found = lookupOp(info.name);
    ASSERT_TRUE(found) << info.name;
    EXPECT_EQ(*found, info.code);
  }
  EXPECT_EQ(lookupOp("negate"), OpCode::Neg);
  EXPECT_FALSE(lookupOp("var"));
  EXPECT_FALSE(lookupOp("nonsense"));
  auto names = allOpNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "negate"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "const"), names.end());
}

TEST(OpTable, OperandSignaturesComeFromTheOperandsColumn) {
  // Every in-place row names the operand it overwrites, and only in-place rows do.
  for (int i = 0; i < kNumOpCodes; ++i) {
    const OpInfo& info = opInfo(static_cast<OpCode>(i));
    EXPECT_EQ(info.has(F_INPLACE), info.inplaceOperand >= 0) << info.name;
    EXPECT_EQ(info.operandNames.find_first_of("$!:>"), std::string::npos) << info.name << ": " << info.operandNames;
  }
  const OpInfo& loadInto = opInfo(OpCode::RemoteLoadInplace);
  EXPECT_EQ(loadInto.inplaceOperand, 2);
  EXPECT_EQ(loadInto.operand(0).role, OperandRole::Resource);
  EXPECT_EQ(loadInto.operand(1).literalDType, DType::I32);
  EXPECT_EQ(loadInto.operandNames, "b, offset, t");
  EXPECT_EQ(inplaceOperandIndex(OpCode::ScaledAddInplace), 0);
  EXPECT_EQ(inplaceOperandIndex(OpCode::Add), -1);
  EXPECT_EQ(opInfo(OpCode::Where).operand(0).literalDType, DType::Bool);
  EXPECT_EQ(opInfo(OpCode::Where).operand(1).literalDType, std::nullopt);
  EXPECT_EQ(opInfo(OpCode::Dropout).operand(1).literalDType, DType::U32);
  EXPECT_EQ(opInfo(OpCode::Conditional).callees, 2u);
  EXPECT_EQ(opInfo(OpCode::Call).callees, 1u);
  // Past the listed positions of an open-ended op: a plain tensor.
  EXPECT_EQ(opInfo(OpCode::Conditional).operand(5).role, OperandRole::Tensor);
  EXPECT_EQ(opInfo(OpCode::Conditional).operand(5).literalDType, std::nullopt);
  // Result counts.
  EXPECT_EQ(opInfo(OpCode::HostStore).results.count, 0u);
  EXPECT_EQ(opInfo(OpCode::TopK).results.count, 2u);
  EXPECT_EQ(opInfo(OpCode::Add).results.count, 1u);
  EXPECT_EQ(opInfo(OpCode::Split).results.kind, ResultSpec::Kind::PerListElement);
  EXPECT_EQ(opInfo(OpCode::SplitRandomSeed).results.kind, ResultSpec::Kind::AttrCount);
  EXPECT_EQ(opInfo(OpCode::Repeat).results.kind, ResultSpec::Kind::CalleeOutputs);
}

TEST(OpTable, CostClassesComeFromTheCostColumn) {
  EXPECT_EQ(opInfo(OpCode::MatMul).costClass, CostClass::MatMul);
  EXPECT_EQ(opInfo(OpCode::Tanh).costClass, CostClass::Transcendental);
  EXPECT_EQ(opInfo(OpCode::TanhInplace).costClass, CostClass::Transcendental);
  EXPECT_EQ(opInfo(OpCode::Add).costClass, CostClass::Simple);
  EXPECT_EQ(opInfo(OpCode::Var).costClass, CostClass::None);
  EXPECT_EQ(opInfo(OpCode::HostLoad).costClass, CostClass::Io);
  EXPECT_EQ(opInfo(OpCode::PrintTensor).costClass, CostClass::Io);
  // Flags and cost agree where a flag decides the class.
  for (int i = 0; i < kNumOpCodes; ++i) {
    const OpInfo& info = opInfo(static_cast<OpCode>(i));
    if (info.has(F_CONTROL)) {
      EXPECT_EQ(info.costClass, CostClass::Control) << info.name;
    }
    if (info.has(F_COLLECTIVE)) {
      EXPECT_EQ(info.costClass, CostClass::Collective) << info.name;
    }
    if (info.has(F_IO)) {
      EXPECT_EQ(info.costClass, CostClass::Io) << info.name;
    }
  }
}

TEST(OpTable, SpecDefaultsAreTyped) {
  const OpInfo& clip = opInfo(OpCode::Clip);
  const AttrSpec* mn = clip.findAttr("min");
  ASSERT_TRUE(mn);
  EXPECT_EQ(mn->type, AttrType::Float);
  EXPECT_TRUE(std::isinf(mn->defaultValue.f) && mn->defaultValue.f < 0);
  const AttrSpec* reduction = opInfo(OpCode::NllLoss).findAttr("reduction");
  ASSERT_TRUE(reduction);
  EXPECT_EQ(reduction->type, AttrType::Enum);
  EXPECT_EQ(reduction->enumValues, (std::vector<std::string>{"mean", "sum", "none"}));
  EXPECT_TRUE(reduction->defaultValue.isWord("mean"));
  const AttrSpec* values = opInfo(OpCode::OneHot).findAttr("values");
  ASSERT_TRUE(values);
  ASSERT_EQ(values->defaultValue.items.size(), 2u);
  EXPECT_EQ(values->defaultValue.items[1].number(), 1.0);
  EXPECT_EQ(opInfo(OpCode::TopK).findAttr("k")->presence, AttrPresence::Required);
  EXPECT_EQ(opInfo(OpCode::Conv).findAttr("stride")->presence, AttrPresence::Optional);
  EXPECT_EQ(placementAttrs().size(), 4u);
}

TEST_F(InferTest, BroadcastingBinary) {
  auto r = infer(OpCode::Add, {F32({2, 3}), F32({3})});
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({2, 3}));
  r = infer(OpCode::Mul, {F32({4, 1, 5}), F32({3, 1})});
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({4, 3, 5}));
  infer(OpCode::Add, {F32({2, 3}), F32({4})});
  EXPECT_EQ(error, "add: operand types f32[2,3] and f32[4] do not broadcast");
  infer(OpCode::Sub, {F32({2}), T(DType::I32, {2})});
  EXPECT_EQ(error, "sub: operand types f32[2] and i32[2] have different dtypes");
  r = infer(OpCode::Maximum, {F32({2}), F32({1}), F32({3, 2})});
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({3, 2}));
}

TEST_F(InferTest, DTypeClasses) {
  infer(OpCode::Exp, {T(DType::I32, {2})});
  EXPECT_EQ(error, "exp: expects a float operand, got i32[2]");
  auto r = infer(OpCode::Less, {F32({2}), F32({})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], T(DType::Bool, {2}));
  r = infer(OpCode::IsNan, {F32({3})});
  EXPECT_EQ(r[0], T(DType::Bool, {3}));
  infer(OpCode::LogicalAnd, {F32({2}), F32({2})});
  EXPECT_EQ(error, "logical_and: expects a bool operand, got f32[2]");
  r = infer(OpCode::Cast, {F32({2})}, attrs({{"dtype", Attr::word("i16")}}));
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], T(DType::I16, {2}));
  r = infer(OpCode::Where, {T(DType::Bool, {2, 1}), F32({3}), F32({1})});
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({2, 3}));
}

TEST_F(InferTest, ReductionAxes) {
  auto r = infer(OpCode::Sum, {F32({2, 3, 4})});
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({}));
  r = infer(OpCode::Mean, {F32({2, 3, 4})}, attrs({{"axis", Attr::integer(-1)}, {"keepdims", Attr::boolean(true)}}));
  EXPECT_EQ(r[0], F32({2, 3, 1}));
  r = infer(OpCode::Max, {F32({2, 3, 4})}, attrs({{"axis", ints({0, 2})}}));
  EXPECT_EQ(r[0], F32({3}));
  infer(OpCode::Sum, {F32({2, 3})}, attrs({{"axis", Attr::integer(2)}}));
  EXPECT_EQ(error, "sum: axis 2 is out of range for f32[2,3] (rank 2)");
  infer(OpCode::Sum, {F32({2, 3})}, attrs({{"axis", ints({1, -1})}}));
  EXPECT_EQ(error, "sum: duplicate axis -1 in [1,-1]");
  r = infer(OpCode::ArgMax, {F32({2, 3})}, attrs({{"axis", Attr::integer(1)}}));
  EXPECT_EQ(r[0], T(DType::I32, {2}));
  r = infer(OpCode::TopK, {F32({2, 5})}, attrs({{"k", Attr::integer(3)}}));
  ASSERT_EQ(r.size(), 2u) << error;
  EXPECT_EQ(r[0], F32({2, 3}));
  EXPECT_EQ(r[1], T(DType::I32, {2, 3}));
  infer(OpCode::TopK, {F32({2, 5})});
  EXPECT_EQ(error, "topk: missing required attribute 'k'");
}

TEST_F(InferTest, MatMul) {
  EXPECT_EQ(infer(OpCode::MatMul, {F32({2, 3}), F32({3, 4})})[0], F32({2, 4}));
  EXPECT_EQ(infer(OpCode::MatMul, {F32({3}), F32({3, 4})})[0], F32({4}));
  EXPECT_EQ(infer(OpCode::MatMul, {F32({2, 3}), F32({3})})[0], F32({2}));
  EXPECT_EQ(infer(OpCode::MatMul, {F32({3}), F32({3})})[0], F32({}));
  EXPECT_EQ(infer(OpCode::MatMul, {F32({5, 1, 2, 3}), F32({4, 3, 6})})[0], F32({5, 4, 2, 6}));
  EXPECT_EQ(infer(OpCode::MatMul, {T(DType::I32, {2, 2}), T(DType::I32, {2, 2})})[0], T(DType::I32, {2, 2}));
  infer(OpCode::MatMul, {F32({2, 3}), F32({4, 2})});
  EXPECT_EQ(error, "matmul: inner dimensions of f32[2,3] and f32[4,2] do not match (3 vs 4)");
  infer(OpCode::MatMul, {F32({2, 2, 3}), F32({3, 3, 4})});
  EXPECT_EQ(error, "matmul: batch dimensions of f32[2,2,3] and f32[3,3,4] do not broadcast");
  infer(OpCode::MatMul, {T(DType::U8, {2, 2}), T(DType::U8, {2, 2})});
  EXPECT_EQ(error, "matmul: expects float or i32 operands, got u8[2,2]");
}

TEST_F(InferTest, TransposeReshapeSqueeze) {
  EXPECT_EQ(infer(OpCode::Transpose, {F32({2, 3, 4})})[0], F32({4, 3, 2}));
  EXPECT_EQ(infer(OpCode::Transpose, {F32({2, 3, 4})}, attrs({{"perm", ints({1, 0, 2})}}))[0], F32({3, 2, 4}));
  infer(OpCode::Transpose, {F32({2, 3})}, attrs({{"perm", ints({0, 0})}}));
  EXPECT_EQ(error, "transpose: perm [0,0] is not a permutation of the axes of f32[2,3]");
  EXPECT_EQ(infer(OpCode::Reshape, {F32({2, 3})}, attrs({{"shape", ints({3, -1})}}))[0], F32({3, 2}));
  infer(OpCode::Reshape, {F32({2, 3})}, attrs({{"shape", ints({4, 2})}}));
  EXPECT_EQ(error, "reshape: cannot reshape f32[2,3] (6 elements) to [4,2] (8 elements)");
  infer(OpCode::Reshape, {F32({2, 3})}, attrs({{"shape", ints({-1, -1})}}));
  EXPECT_EQ(error, "reshape: only one -1 is allowed in shape [-1,-1]");
  EXPECT_EQ(infer(OpCode::Squeeze, {F32({1, 3, 1})})[0], F32({3}));
  infer(OpCode::Squeeze, {F32({1, 3})}, attrs({{"axes", ints({1})}}));
  EXPECT_EQ(error, "squeeze: cannot squeeze axis 1 of f32[1,3]: its size is 3, not 1");
  EXPECT_EQ(infer(OpCode::Unsqueeze, {F32({3})}, attrs({{"axes", ints({0, -1})}}))[0], F32({1, 3, 1}));
  EXPECT_EQ(infer(OpCode::Flatten, {F32({2, 3})})[0], F32({6}));
  EXPECT_EQ(infer(OpCode::Broadcast, {F32({3})}, attrs({{"shape", ints({2, 3})}}))[0], F32({2, 3}));
  infer(OpCode::Broadcast, {F32({3})}, attrs({{"shape", ints({2, 4})}}));
  EXPECT_EQ(error, "broadcast: f32[3] does not broadcast to shape [2,4]");
}

TEST_F(InferTest, SplitConcatSlice) {
  auto r = infer(OpCode::Split, {F32({5, 2})}, attrs({{"splits", ints({2, 3})}}));
  ASSERT_EQ(r.size(), 2u) << error;
  EXPECT_EQ(r[0], F32({2, 2}));
  EXPECT_EQ(r[1], F32({3, 2}));
  infer(OpCode::Split, {F32({4})}, attrs({{"splits", ints({1, 2})}}));
  EXPECT_EQ(error, "split: splits [1,2] add up to 3, but axis 0 of f32[4] has size 4");
  EXPECT_EQ(infer(OpCode::Concat, {F32({2, 3}), F32({2, 1})}, attrs({{"axis", Attr::integer(1)}}))[0], F32({2, 4}));
  infer(OpCode::Concat, {F32({2, 3}), F32({3, 3})}, attrs({{"axis", Attr::integer(1)}}));
  EXPECT_EQ(error, "concat: operand types f32[2,3] and f32[3,3] cannot be concatenated on axis 1");
  // NumPy: x[1:100] on 5 -> 4; x[-2:] -> 2; x[::-2] -> 3; x[4:1:-1] -> 3.
  EXPECT_EQ(infer(OpCode::Slice, {F32({5})}, attrs({{"start", ints({1})}, {"stop", ints({100})}}))[0], F32({4}));
  EXPECT_EQ(infer(OpCode::Slice, {F32({5})}, attrs({{"start", ints({-2})}, {"stop", ints({5})}}))[0], F32({2}));
  EXPECT_EQ(infer(OpCode::Slice, {F32({5})},
                  attrs({{"start", ints({4})}, {"stop", ints({-6})}, {"step", ints({-2})}}))[0],
            F32({3}));
  EXPECT_EQ(infer(OpCode::Slice, {F32({2, 5})},
                  attrs({{"start", ints({4})}, {"stop", ints({1})}, {"step", ints({-1})}, {"axes", ints({1})}}))[0],
            F32({2, 3}));
  EXPECT_EQ(infer(OpCode::Subsample, {F32({5, 4})}, attrs({{"strides", ints({2, 3})}}))[0], F32({3, 2}));
}

TEST_F(InferTest, ConvAndPool) {
  auto r = infer(OpCode::Conv, {F32({1, 3, 8, 8}), F32({4, 3, 3, 3})},
                 attrs({{"padding", ints({1, 1, 1, 1})}, {"stride", ints({2, 2})}}));
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({1, 4, 4, 4}));
  EXPECT_EQ(infer(OpCode::Conv, {F32({2, 4, 10}), F32({6, 2, 3})}, attrs({{"groups", Attr::integer(2)}}))[0],
            F32({2, 6, 8}));
  infer(OpCode::Conv, {F32({1, 3, 8, 8}), F32({4, 2, 3, 3})});
  EXPECT_EQ(error, "conv: weights f32[4,2,3,3] expect 2 \u00d7 1 input channels, got f32[1,3,8,8]");
  EXPECT_EQ(infer(OpCode::MaxPool, {F32({1, 2, 6, 6})}, attrs({{"kernel", ints({2, 2})}}))[0], F32({1, 2, 3, 3}));
}

TEST_F(InferTest, PoolCeilModeAndDilation) {
  const Attr yes = Attr::boolean(true);
  // floor((5 + 0 - 2) / 2) + 1 = 2; ceil gives 3 (the last window holds one real cell).
  EXPECT_EQ(infer(OpCode::MaxPool, {F32({1, 1, 5})}, attrs({{"kernel", ints({2})}}))[0], F32({1, 1, 2}));
  EXPECT_EQ(infer(OpCode::MaxPool, {F32({1, 1, 5})}, attrs({{"kernel", ints({2})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 3}));
  // ONNX's rule: a window that would start in the end padding is dropped. 6 + 1 + 0,
  // kernel 2, stride 2: ceil((7 - 2) / 2) + 1 = 4, and the fourth starts at 6 - 1 = 5,
  // inside the input: kept. Over 5 + 0 + 2 the fourth would start at 6, in the end
  // padding: dropped (3, as floor). Likewise at stride 3 over 5 + 0 + 1.
  EXPECT_EQ(infer(OpCode::AveragePool, {F32({1, 1, 6})},
                  attrs({{"kernel", ints({2})}, {"padding", ints({1, 0})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 4}));
  EXPECT_EQ(infer(OpCode::AveragePool, {F32({1, 1, 5})},
                  attrs({{"kernel", ints({2})}, {"padding", ints({0, 2})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 3}));
  EXPECT_EQ(infer(OpCode::AveragePool, {F32({1, 1, 5})},
                  attrs({{"kernel", ints({2})}, {"stride", ints({3})}, {"padding", ints({0, 1})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 2}));
  // A window longer than the input by less than a stride: one output under ceil_mode
  // (PyTorch's too), an error without it.
  EXPECT_EQ(infer(OpCode::MaxPool, {F32({1, 1, 2})},
                  attrs({{"kernel", ints({3})}, {"stride", ints({2})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 1}));
  EXPECT_TRUE(infer(OpCode::MaxPool, {F32({1, 1, 2})}, attrs({{"kernel", ints({3})}, {"stride", ints({2})}})).empty());
  EXPECT_TRUE(infer(OpCode::MaxPool, {F32({1, 1, 2})},
                    attrs({{"kernel", ints({5})}, {"stride", ints({2})}, {"ceil_mode", yes}})).empty());
  EXPECT_EQ(error, "max_pool: window of size 5 is larger than the padded input f32[1,1,2]");
  // Strides and paddings near int64's limit neither overflow nor crash.
  EXPECT_EQ(infer(OpCode::MaxPool, {F32({1, 1, 4})},
                  attrs({{"kernel", ints({2})}, {"stride", ints({INT64_MAX})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 1}));
  EXPECT_EQ(infer(OpCode::AveragePool, {F32({1, 1, 4})},
                  attrs({{"kernel", ints({2})}, {"stride", ints({INT64_MAX})}, {"padding", ints({0, INT64_MAX - 4})},
                         {"ceil_mode", yes}}))[0],
            F32({1, 1, 1}));
  // Dilation stretches the window to d * (k - 1) + 1 cells; one value spreads.
  EXPECT_EQ(infer(OpCode::MaxPool, {F32({1, 1, 7, 7})},
                  attrs({{"kernel", ints({3, 3})}, {"stride", ints({1, 1})}, {"dilation", ints({2})}}))[0],
            F32({1, 1, 3, 3}));
  infer(OpCode::AveragePool, {F32({1, 1, 7, 7})}, attrs({{"kernel", ints({3, 3})}, {"dilation", ints({0, 1})}}));
  EXPECT_EQ(error, "average_pool: attribute 'dilation' values must be >= 1, got [0,1]");
  // max_pool_with_indices: the values and their i32 indices.
  auto r = infer(OpCode::MaxPoolWithIndices, {T(DType::I16, {2, 3, 5})}, attrs({{"kernel", ints({2})}, {"ceil_mode", yes}}));
  ASSERT_EQ(r.size(), 2u) << error;
  EXPECT_EQ(r[0], T(DType::I16, {2, 3, 3}));
  EXPECT_EQ(r[1], T(DType::I32, {2, 3, 3}));
  // The gradient ops check g against the forward output of the same attributes.
  EXPECT_EQ(infer(OpCode::MaxPoolGrad, {F32({1, 1, 5}), F32({1, 1, 3})}, attrs({{"kernel", ints({2})}, {"ceil_mode", yes}}))[0],
            F32({1, 1, 5}));
  infer(OpCode::MaxPoolGrad, {F32({1, 1, 5}), F32({1, 1, 2})}, attrs({{"kernel", ints({2})}, {"ceil_mode", yes}}));
  EXPECT_NE(error.find("is not shaped as the output [1,1,3]"), std::string::npos) << error;
  EXPECT_EQ(infer(OpCode::AveragePoolGrad, {F32({1, 1, 3})},
                  attrs({{"shape", ints({1, 1, 5})}, {"kernel", ints({2})}, {"ceil_mode", yes},
                         {"count_include_pad", yes}}))[0],
            F32({1, 1, 5}));
}

TEST_F(InferTest, RandomCollectivesAndIo) {
  auto r = infer(OpCode::RandomUniform, {T(DType::U32, {2})}, attrs({{"shape", ints({3})}}));
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(r[0], F32({3}));
  infer(OpCode::RandomNormal, {T(DType::I32, {2})}, attrs({{"shape", ints({3})}}));
  EXPECT_EQ(error, "random_normal: seed must be u32[2], got i32[2]");
  r = infer(OpCode::SplitRandomSeed, {T(DType::U32, {2})}, attrs({{"n", Attr::integer(3)}}));
  EXPECT_EQ(r.size(), 3u);
  options.replication = 4;
  r = infer(OpCode::AllGather, {F32({2, 3})});
  EXPECT_EQ(r[0], F32({4, 2, 3}));
  r = infer(OpCode::ReduceScatter, {F32({2, 5})}, attrs({{"group", Attr::tuple({Attr::integer(1), Attr::integer(4)})}}));
  EXPECT_EQ(r[0], F32({3}));
  infer(OpCode::AllReduce, {F32({2})}, attrs({{"group", Attr::tuple({Attr::integer(3)})}}));
  EXPECT_EQ(error, "replicated_all_reduce: replica grouping (3, 1) is not valid for 4 replicas: stride must divide the replica count");

  auto stream = std::make_unique<Resource>();
  stream->kind = Resource::Kind::D2H;
  stream->name = "y";
  stream->type = F32({2});
  Op& store = op(OpCode::HostStore, {F32({3})});
  Operand s;
  s.setKind(Operand::Kind::Resource);
  s.setResource(stream.get());
  store.operands.insert(store.operands.begin(), s);
  EXPECT_TRUE(infer(store).empty());
  EXPECT_EQ(error, "host_store: value type f32[3] does not match $y : f32[2]");
}

// Every collective that reduces with an `op` attribute: the logical ops take bool
// only, the arithmetic ones numbers only (one rule, not one per op).
TEST_F(InferTest, EveryReducingCollectiveChecksItsOperandAgainstItsOp) {
  options.replication = 2;
  int reducing = 0;
  for (int i = 0; i < kNumOpCodes; ++i) {
    const OpCode code = static_cast<OpCode>(i);
    const OpInfo& info = opInfo(code);
    if (!info.has(F_COLLECTIVE) || !info.findAttr("op")) continue;
    ++reducing;
    SCOPED_TRACE(std::string(info.name));
    for (const char* logical : {"and", "or"}) {
      infer(code, {F32({4})}, attrs({{"op", Attr::word(logical)}}));
      EXPECT_EQ(error, std::string(info.name) + ": op = " + logical + " expects a bool operand, got f32[4]");
      EXPECT_FALSE(infer(code, {T(DType::Bool, {4})}, attrs({{"op", Attr::word(logical)}})).empty()) << error;
    }
    for (const char* arithmetic : {"add", "max", "square_add"}) {
      EXPECT_FALSE(infer(code, {F32({4})}, attrs({{"op", Attr::word(arithmetic)}})).empty()) << error;
      infer(code, {T(DType::Bool, {4})}, attrs({{"op", Attr::word(arithmetic)}}));
      EXPECT_NE(error, "") << arithmetic << " on bool";
    }
  }
  EXPECT_EQ(reducing, 3);  // all_reduce, all_reduce_, reduce_scatter
}

// Every prefix ("op: ") is added through prefixed(), which never repeats it.
TEST(Prefixed, AddsTheNameOnce) {
  EXPECT_EQ(prefixed("slice", "step is 0"), "slice: step is 0");
  EXPECT_EQ(prefixed("slice", "slice: step is 0"), "slice: step is 0");
  EXPECT_EQ(prefixed("slice", "slice_: x"), "slice: slice_: x");
  EXPECT_EQ(prefixed("var %w", "var %w: bad grouping"), "var %w: bad grouping");
}

TEST_F(InferTest, LiteralOperandsTakeTheFirstTensorsDType) {
  Op& o = op(OpCode::Add, {T(DType::I16, {2})});
  Operand lit;
  lit.setKind(Operand::Kind::Literal);
  auto three = std::make_shared<Literal>();
  three->values = {3};
  three->hasNumber = true;
  lit.setLiteral(three);
  o.operands.push_back(lit);
  auto r = infer(o);
  ASSERT_EQ(r.size(), 1u) << error;
  EXPECT_EQ(o.operands[1].literalType(), T(DType::I16, {}));
  Op& bad = op(OpCode::Add, {});
  bad.operands = {lit, lit};
  infer(bad);
  EXPECT_EQ(error, "add: cannot infer the dtype: declare a const");
  Op& range = op(OpCode::Add, {T(DType::U8, {2})});
  auto big = std::make_shared<Literal>(*lit.literal());
  big->values = {300};
  lit.setLiteral(big);
  range.operands.push_back(lit);
  infer(range);
  EXPECT_EQ(error, "add: value 300 is out of range for u8");
}

TEST(Broadcast, Shapes) {
  EXPECT_EQ(broadcastShapes({2, 1}, {1, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcastShapes({}, {4}), (Shape{4}));
  EXPECT_FALSE(broadcastShapes({2}, {3}));
  EXPECT_EQ(broadcastShapes({0}, {1}), (Shape{0}));
}

}  // namespace
}  // namespace pir
