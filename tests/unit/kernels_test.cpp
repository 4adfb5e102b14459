// Compute kernels (vm/kernels.h), called directly on small tensors. Expected
// values are written by hand or computed here by straightforward loops.
#include "vm/kernels.h"
#include "vm/simd_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ir/half.h"

namespace pir::vm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A host tensor: type plus raw bytes; values go in and come out as doubles.
struct Buf {
  TensorType type;
  std::vector<unsigned char> bytes;

  Buf() = default;
  Buf(DType dt, Shape shape, const std::vector<double>& values = {}) : type{dt, std::move(shape)} {
    bytes.assign(static_cast<size_t>(type.numElements() * dtypeSize(dt)), 0);
    for (size_t i = 0; i < values.size(); ++i) set(static_cast<int64_t>(i), values[i]);
  }
  void set(int64_t i, double v) {
    void* p = bytes.data() + i * dtypeSize(type.dtype);
    switch (type.dtype) {
      case DType::Bool: *static_cast<bool*>(p) = v != 0; break;
      case DType::I8: *static_cast<int8_t*>(p) = static_cast<int8_t>(v); break;
      case DType::I16: *static_cast<int16_t*>(p) = static_cast<int16_t>(v); break;
      case DType::I32: *static_cast<int32_t*>(p) = static_cast<int32_t>(v); break;
      case DType::U8: *static_cast<uint8_t*>(p) = static_cast<uint8_t>(v); break;
      case DType::U16: *static_cast<uint16_t*>(p) = static_cast<uint16_t>(v); break;
      case DType::U32: *static_cast<uint32_t*>(p) = static_cast<uint32_t>(v); break;
      case DType::F16: *static_cast<uint16_t*>(p) = floatToHalf(static_cast<float>(v)); break;
      case DType::F32: *static_cast<float*>(p) = static_cast<float>(v); break;
      case DType::F64: *static_cast<double*>(p) = v; break;
    }
  }
  double get(int64_t i) const {
    const void* p = bytes.data() + i * dtypeSize(type.dtype);
    switch (type.dtype) {
      case DType::Bool: return *static_cast<const bool*>(p);
      case DType::I8: return *static_cast<const int8_t*>(p);
      case DType::I16: return *static_cast<const int16_t*>(p);
      case DType::I32: return *static_cast<const int32_t*>(p);
      case DType::U8: return *static_cast<const uint8_t*>(p);
      case DType::U16: return *static_cast<const uint16_t*>(p);
      case DType::U32: return *static_cast<const uint32_t*>(p);
      case DType::F16: return halfToFloat(*static_cast<const uint16_t*>(p));
      case DType::F32: return *static_cast<const float*>(p);
      case DType::F64: return *static_cast<const double*>(p);
    }
    return 0;
  }
  std::vector<double> values() const {
    std::vector<double> v;
    for (int64_t i = 0; i < type.numElements(); ++i) v.push_back(get(i));
    return v;
  }
  TensorRef ref() { return TensorRef{bytes.data(), &type}; }
};

Op makeOp(OpCode code, std::vector<std::pair<std::string, Attr>> attrs = {}) {
  Op op;
  op.code = code;
  for (auto& [k, v] : attrs) op.attrs.set(k, v);
  return op;
}

Attr ints(std::vector<int64_t> v) {
  std::vector<Attr> items;
  for (int64_t x : v) items.push_back(Attr::integer(x));
  return Attr::list(std::move(items));
}

// Prepares and runs `op`; results get `outTypes`. In-place ops write operand 0.
std::vector<Buf> run(const Op& op, std::vector<Buf*> ins, std::vector<TensorType> outTypes) {
  std::vector<TensorType> inTypes;
  std::vector<TensorRef> inRefs;
  for (Buf* b : ins) {
    inTypes.push_back(b->type);
    inRefs.push_back(b->ref());
  }
  PreparedKernel k = prepareKernel(op, inTypes, outTypes);
  std::vector<Buf> outs;
  for (auto& t : outTypes) outs.emplace_back(t.dtype, t.shape);
  std::vector<TensorRef> outRefs;
  for (auto& o : outs) outRefs.push_back(o.ref());
  if (op.info().has(F_INPLACE)) outRefs[0] = inRefs[0];
  KernelContext ctx;
  k(inRefs.data(), outRefs.data(), ctx);
  if (op.info().has(F_INPLACE)) outs[0] = *ins[0];
  return outs;
}

Buf run1(const Op& op, std::vector<Buf*> ins, TensorType outType) { return run(op, std::move(ins), {outType})[0]; }

void expectValues(const Buf& b, const std::vector<double>& expected, double tol = 1e-6) {
  const auto got = b.values();
  ASSERT_EQ(got.size(), expected.size()) << b.type.str();
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    else if (std::isinf(expected[i])) EXPECT_EQ(got[i], expected[i]) << "element " << i;
    else EXPECT_NEAR(got[i], expected[i], tol * std::max(1.0, std::abs(expected[i]))) << "element " << i;
  }
}

std::vector<double> iota(int64_t n, double start = 0) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + static_cast<double>(i));
  return v;
}

// ---- binding from the row ------------------------------------------------------

// ops.def's Kernel column names the element function: an in-place row names its
// plain row's (`Unary(Exp)` for exp and exp_), so both run one kernel; rows naming
// different functions run different ones.
TEST(Kernels, RowsNamingOneElementFunctionRunOneKernel) {
  const std::vector<TensorType> x = {{DType::F32, {4}}}, xy = {{DType::F32, {4}}, {DType::F32, {4}}};
  auto kernelOf = [](OpCode c, const std::vector<TensorType>& ins) {
    return prepareKernel(makeOp(c), ins, std::vector<TensorType>{ins[0]}).fn;
  };
  EXPECT_EQ(kernelOf(OpCode::Exp, x), kernelOf(OpCode::ExpInplace, x));
  EXPECT_EQ(kernelOf(OpCode::Relu, x), kernelOf(OpCode::ReluInplace, x));
  EXPECT_EQ(kernelOf(OpCode::Add, xy), kernelOf(OpCode::AddInplace, xy));
  EXPECT_EQ(kernelOf(OpCode::Maximum, xy), kernelOf(OpCode::MaximumInplace, xy));
  EXPECT_NE(kernelOf(OpCode::Exp, x), kernelOf(OpCode::Log, x));
  EXPECT_NE(kernelOf(OpCode::Add, xy), kernelOf(OpCode::Sub, xy));
  EXPECT_FALSE(hasKernel(OpCode::Call));  // a VM instruction, not a kernel
}

// ---- binary ------------------------------------------------------------------

TEST(Kernels, AddSameShapeAndBroadcast) {
  Buf a(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Buf row(DType::F32, {3}, {10, 20, 30});
  Buf col(DType::F32, {2, 1}, {100, 200});
  Buf s(DType::F32, {}, {0.5});
  expectValues(run1(makeOp(OpCode::Add), {&a, &a}, {DType::F32, {2, 3}}), {2, 4, 6, 8, 10, 12});
  expectValues(run1(makeOp(OpCode::Add), {&a, &row}, {DType::F32, {2, 3}}), {11, 22, 33, 14, 25, 36});
  expectValues(run1(makeOp(OpCode::Sub), {&row, &a}, {DType::F32, {2, 3}}), {9, 18, 27, 6, 15, 24});
  expectValues(run1(makeOp(OpCode::Mul), {&s, &a}, {DType::F32, {2, 3}}), {0.5, 1, 1.5, 2, 2.5, 3});
  // [2,1] + [3] → [2,3]: both operands broadcast.
  expectValues(run1(makeOp(OpCode::Add), {&col, &row}, {DType::F32, {2, 3}}), {110, 120, 130, 210, 220, 230});
}

TEST(Kernels, BroadcastMiddleAxis) {
  Buf a(DType::F64, {2, 3, 2}, iota(12));
  Buf b(DType::F64, {2, 1, 2}, {100, 200, 300, 400});
  Buf r = run1(makeOp(OpCode::Add), {&a, &b}, {DType::F64, {2, 3, 2}});
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) expected.push_back((i * 6 + j * 2 + k) + b.get(i * 2 + k));
  expectValues(r, expected);
}

TEST(Kernels, IntegerArithmeticWraps) {
  Buf a(DType::I8, {2}, {127, -128});
  Buf one(DType::I8, {2}, {1, 1});
  expectValues(run1(makeOp(OpCode::Add), {&a, &one}, {DType::I8, {2}}), {-128, -127});
  expectValues(run1(makeOp(OpCode::Sub), {&a, &one}, {DType::I8, {2}}), {126, 127});
  Buf u(DType::U16, {1}, {65535});
  expectValues(run1(makeOp(OpCode::Mul), {&u, &u}, {DType::U16, {1}}), {1});
  Buf big(DType::I32, {1}, {2147483647});
  Buf i1(DType::I32, {1}, {1});
  expectValues(run1(makeOp(OpCode::Add), {&big, &i1}, {DType::I32, {1}}), {-2147483648.0});
  Buf u8a(DType::U8, {1}, {3}), u8b(DType::U8, {1}, {5});
  expectValues(run1(makeOp(OpCode::Sub), {&u8a, &u8b}, {DType::U8, {1}}), {254});
}

TEST(Kernels, IntegerDivisionTruncatesAndChecksZero) {
  Buf a(DType::I32, {4}, {7, -7, 7, -2147483648.0});
  Buf b(DType::I32, {4}, {-2, 2, 3, -1});
  expectValues(run1(makeOp(OpCode::Div), {&a, &b}, {DType::I32, {4}}), {-3, -3, 2, -2147483648.0});
  expectValues(run1(makeOp(OpCode::Fmod), {&a, &b}, {DType::I32, {4}}), {1, -1, 1, 0});
  Buf z(DType::I32, {4}, {1, 0, 1, 1});
  try {
    run1(makeOp(OpCode::Div), {&a, &z}, {DType::I32, {4}});
    FAIL() << "expected KernelError";
  } catch (const KernelError& e) {
    EXPECT_STREQ(e.what(), "integer division by zero");
  }
  Buf zs(DType::U8, {}, {0}), u(DType::U8, {2}, {1, 2});
  EXPECT_THROW(run1(makeOp(OpCode::Fmod), {&u, &zs}, {DType::U8, {2}}), KernelError);
}

TEST(Kernels, FloatDivisionIsIeee) {
  Buf a(DType::F32, {3}, {1, -1, 0});
  Buf z(DType::F32, {}, {0});
  expectValues(run1(makeOp(OpCode::Div), {&a, &z}, {DType::F32, {3}}), {kInf, -kInf, kNaN});
  Buf x(DType::F64, {2}, {-7.5, 7.5}), y(DType::F64, {2}, {2, -2});
  expectValues(run1(makeOp(OpCode::Fmod), {&x, &y}, {DType::F64, {2}}), {-1.5, 1.5});
  expectValues(run1(makeOp(OpCode::Pow), {&y, &x}, {DType::F64, {2}}), {std::pow(2, -7.5), std::pow(-2, 7.5)});
}

TEST(Kernels, HalfComputesInFloatAndRounds) {
  Buf a(DType::F16, {3}, {0.5, 1000, 1});
  Buf b(DType::F16, {3}, {0.25, 0.3, 1.0 / 3.0});
  Buf r = run1(makeOp(OpCode::Add), {&a, &b}, {DType::F16, {3}});
  // 1000.3 rounds to the nearest half (spacing 0.5 at 1000).
  EXPECT_EQ(r.get(0), 0.75);
  EXPECT_EQ(r.get(1), 1000.5);
  EXPECT_EQ(r.get(2), halfToFloat(floatToHalf(1.0f + halfToFloat(floatToHalf(1.0f / 3)))));
}

TEST(Kernels, VariadicMaximumPropagatesNaN) {
  Buf a(DType::F32, {2, 2}, {1, 5, kNaN, 0});
  Buf b(DType::F32, {2}, {3, 2});
  Buf c(DType::F32, {}, {4});
  expectValues(run1(makeOp(OpCode::Maximum), {&a, &b, &c}, {DType::F32, {2, 2}}), {4, 5, kNaN, 4});
  expectValues(run1(makeOp(OpCode::Minimum), {&a, &b, &c}, {DType::F32, {2, 2}}), {1, 2, kNaN, 0});
}

TEST(Kernels, ComparisonsAndLogic) {
  Buf a(DType::I16, {4}, {1, 2, 3, 4});
  Buf t(DType::I16, {}, {2});
  expectValues(run1(makeOp(OpCode::Greater), {&a, &t}, {DType::Bool, {4}}), {0, 0, 1, 1});
  expectValues(run1(makeOp(OpCode::LessEqual), {&a, &t}, {DType::Bool, {4}}), {1, 1, 0, 0});
  expectValues(run1(makeOp(OpCode::Equal), {&t, &a}, {DType::Bool, {4}}), {0, 1, 0, 0});
  Buf p(DType::Bool, {4}, {0, 0, 1, 1}), q(DType::Bool, {4}, {0, 1, 0, 1});
  expectValues(run1(makeOp(OpCode::LogicalAnd), {&p, &q}, {DType::Bool, {4}}), {0, 0, 0, 1});
  expectValues(run1(makeOp(OpCode::LogicalOr), {&p, &q}, {DType::Bool, {4}}), {0, 1, 1, 1});
  expectValues(run1(makeOp(OpCode::LogicalXor), {&p, &q}, {DType::Bool, {4}}), {0, 1, 1, 0});
  expectValues(run1(makeOp(OpCode::LogicalNot), {&p}, {DType::Bool, {4}}), {1, 1, 0, 0});
}

TEST(Kernels, WhereBroadcastsAllThree) {
  Buf c(DType::Bool, {2, 1}, {1, 0});
  Buf x(DType::I32, {3}, {1, 2, 3});
  Buf y(DType::I32, {}, {-1});
  expectValues(run1(makeOp(OpCode::Where), {&c, &x, &y}, {DType::I32, {2, 3}}), {1, 2, 3, -1, -1, -1});
}

TEST(Kernels, ScaledAddAttributesAndOperands) {
  Buf x(DType::F32, {3}, {1, 2, 3}), y(DType::F32, {3}, {10, 20, 30});
  expectValues(run1(makeOp(OpCode::ScaledAdd, {{"a", Attr::real(2)}, {"b", Attr::real(0.5)}}), {&x, &y},
                    {DType::F32, {3}}),
               {7, 14, 21});
  Buf a(DType::F32, {}, {-1}), b(DType::F32, {}, {0.1});
  expectValues(run1(makeOp(OpCode::ScaledAdd), {&x, &y, &a, &b}, {DType::F32, {3}}), {0, 0, 0});
  // In place on x.
  run(makeOp(OpCode::ScaledAddInplace, {{"a", Attr::real(3)}}), {&x, &y}, {x.type});
  expectValues(x, {13, 26, 39});
}

TEST(Kernels, InPlaceBinaryAliasesOperand0) {
  Buf x(DType::F32, {2, 2}, {1, 2, 3, 4});
  Buf r(DType::F32, {2}, {10, 100});
  run(makeOp(OpCode::MulInplace), {&x, &r}, {x.type});
  expectValues(x, {10, 200, 30, 400});
  Buf i(DType::I32, {2}, {9, -9});
  Buf d(DType::I32, {}, {2});
  run(makeOp(OpCode::DivInplace), {&i, &d}, {i.type});
  expectValues(i, {4, -4});
}

// ---- unary and cast ----------------------------------------------------------

TEST(Kernels, UnaryFloatMath) {
  const std::vector<double> xs = {-2, -0.5, 0, 0.5, 3};
  Buf x(DType::F64, {5}, xs);
  auto apply = [&](OpCode c, double (*f)(double)) {
    std::vector<double> e;
    for (double v : xs) e.push_back(f(v));
    expectValues(run1(makeOp(c), {&x}, {DType::F64, {5}}), e, 1e-12);
  };
  apply(OpCode::Abs, [](double v) { return std::abs(v); });
  apply(OpCode::Neg, [](double v) { return -v; });
  apply(OpCode::Sign, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; });
  apply(OpCode::Exp, [](double v) { return std::exp(v); });
  apply(OpCode::Tanh, [](double v) { return std::tanh(v); });
  apply(OpCode::Sigmoid, [](double v) { return 1 / (1 + std::exp(-v)); });
  apply(OpCode::Relu, [](double v) { return v > 0 ? v : 0.0; });
  apply(OpCode::Square, [](double v) { return v * v; });
  apply(OpCode::Sin, [](double v) { return std::sin(v); });
  apply(OpCode::Swish, [](double v) { return v / (1 + std::exp(-v)); });
  apply(OpCode::Softplus, [](double v) { return std::log(1 + std::exp(v)); });
  apply(OpCode::GeluErf, [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); });
  apply(OpCode::Gelu, [](double v) {
    return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
  });
  apply(OpCode::Floor, [](double v) { return std::floor(v); });
  apply(OpCode::Ceil, [](double v) { return std::ceil(v); });
  Buf p(DType::F32, {4}, {4, 0.25, 0, -1});
  expectValues(run1(makeOp(OpCode::Sqrt), {&p}, {DType::F32, {4}}), {2, 0.5, 0, kNaN});
  expectValues(run1(makeOp(OpCode::Rsqrt), {&p}, {DType::F32, {4}}), {0.5, 2, kInf, kNaN});
  expectValues(run1(makeOp(OpCode::Log), {&p}, {DType::F32, {4}}), {std::log(4), std::log(0.25), -kInf, kNaN});
  expectValues(run1(makeOp(OpCode::Log2), {&p}, {DType::F32, {4}}), {2, -2, -kInf, kNaN});
  expectValues(run1(makeOp(OpCode::Reciprocal), {&p}, {DType::F32, {4}}), {0.25, 4, kInf, -1});
}

TEST(Kernels, RoundHalfToEvenAndPredicates) {
  Buf x(DType::F32, {6}, {0.5, 1.5, 2.5, -0.5, -1.7, kNaN});
  expectValues(run1(makeOp(OpCode::Round), {&x}, {DType::F32, {6}}), {0, 2, 2, -0.0, -2, kNaN});
  Buf y(DType::F32, {4}, {1, kNaN, kInf, -kInf});
  expectValues(run1(makeOp(OpCode::IsNan), {&y}, {DType::Bool, {4}}), {0, 1, 0, 0});
  expectValues(run1(makeOp(OpCode::IsInf), {&y}, {DType::Bool, {4}}), {0, 0, 1, 1});
  expectValues(run1(makeOp(OpCode::IsFinite), {&y}, {DType::Bool, {4}}), {1, 0, 0, 0});
  Buf i(DType::I32, {2}, {1, 2});
  expectValues(run1(makeOp(OpCode::IsFinite), {&i}, {DType::Bool, {2}}), {1, 1});
}

TEST(Kernels, IntegerUnary) {
  Buf x(DType::I32, {4}, {-3, 0, 5, -2147483648.0});
  expectValues(run1(makeOp(OpCode::Abs), {&x}, {DType::I32, {4}}), {3, 0, 5, -2147483648.0});
  expectValues(run1(makeOp(OpCode::Neg), {&x}, {DType::I32, {4}}), {3, 0, -5, -2147483648.0});
  expectValues(run1(makeOp(OpCode::Sign), {&x}, {DType::I32, {4}}), {-1, 0, 1, -1});
  expectValues(run1(makeOp(OpCode::Relu), {&x}, {DType::I32, {4}}), {0, 0, 5, 0});
  EXPECT_THROW(run1(makeOp(OpCode::Exp), {&x}, {DType::I32, {4}}), KernelError);
}

TEST(Kernels, ClipDefaultsAndInPlace) {
  Buf x(DType::F32, {4}, {-5, 0.5, 5, kNaN});
  expectValues(run1(makeOp(OpCode::Clip, {{"min", Attr::real(-1)}, {"max", Attr::real(1)}}), {&x}, {DType::F32, {4}}),
               {-1, 0.5, 1, kNaN});
  expectValues(run1(makeOp(OpCode::Clip, {{"max", Attr::integer(0)}}), {&x}, {DType::F32, {4}}), {-5, 0, 0, kNaN});
  Buf i(DType::U8, {3}, {0, 7, 200});
  run(makeOp(OpCode::ClipInplace, {{"min", Attr::real(2.5)}, {"max", Attr::real(100)}}), {&i}, {i.type});
  expectValues(i, {3, 7, 100});
  run(makeOp(OpCode::ReluInplace), {&x}, {x.type});
  expectValues(x, {0, 0.5, 5, kNaN});
}

TEST(Kernels, CastTruncatesAndSaturates) {
  Buf f(DType::F32, {6}, {1e10, -1e10, kNaN, -1.7, 2.9, kInf});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("i32")}}), {&f}, {DType::I32, {6}}),
               {2147483647.0, -2147483648.0, 0, -1, 2, 2147483647.0});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("u8")}}), {&f}, {DType::U8, {6}}), {255, 0, 0, 0, 2, 255});
  Buf i(DType::I32, {4}, {300, -300, 0, 7});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("i8")}}), {&i}, {DType::I8, {4}}), {127, -128, 0, 7});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("u16")}}), {&i}, {DType::U16, {4}}), {300, 0, 0, 7});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("bool")}}), {&i}, {DType::Bool, {4}}), {1, 1, 0, 1});
  Buf b(DType::Bool, {2}, {1, 0});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("f16")}}), {&b}, {DType::F16, {2}}), {1, 0});
  Buf d(DType::F64, {2}, {1e300, 0.1});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("f32")}}), {&d}, {DType::F32, {2}}),
               {kInf, static_cast<float>(0.1)});
  Buf u(DType::U32, {1}, {4294967295.0});
  expectValues(run1(makeOp(OpCode::Cast, {{"dtype", Attr::word("i32")}}), {&u}, {DType::I32, {1}}), {2147483647.0});
}

TEST(Kernels, CopiesKeepBytes) {
  Buf x(DType::I16, {2, 3}, iota(6));
  expectValues(run1(makeOp(OpCode::Reshape, {{"shape", ints({3, 2})}}), {&x}, {DType::I16, {3, 2}}), iota(6));
  expectValues(run1(makeOp(OpCode::Identity), {&x}, x.type), iota(6));
  expectValues(run1(makeOp(OpCode::Flatten), {&x}, {DType::I16, {6}}), iota(6));
}

// ---- matmul ------------------------------------------------------------------

// Reference matmul on [B, M, K] x [B, K, N] with explicit batch offsets.
std::vector<double> refMatMul(const Buf& a, const Buf& b, int64_t m, int64_t k, int64_t n,
                              const std::vector<std::pair<int64_t, int64_t>>& batches) {
  std::vector<double> c;
  for (auto [ab, bb] : batches)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += a.get(ab * m * k + i * k + p) * b.get(bb * k * n + p * n + j);
        c.push_back(s);
      }
  return c;
}

TEST(Kernels, MatMul2D) {
  Buf a(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Buf b(DType::F32, {3, 2}, {7, 8, 9, 10, 11, 12});
  expectValues(run1(makeOp(OpCode::MatMul), {&a, &b}, {DType::F32, {2, 2}}), {58, 64, 139, 154});
}

TEST(Kernels, MatMulVectorPromotion) {
  Buf v(DType::F64, {3}, {1, 2, 3});
  Buf m(DType::F64, {3, 2}, {1, 2, 3, 4, 5, 6});
  Buf mt(DType::F64, {2, 3}, {1, 3, 5, 2, 4, 6});
  expectValues(run1(makeOp(OpCode::MatMul), {&v, &m}, {DType::F64, {2}}), {22, 28});
  expectValues(run1(makeOp(OpCode::MatMul), {&mt, &v}, {DType::F64, {2}}), {22, 28});
  expectValues(run1(makeOp(OpCode::MatMul), {&v, &v}, {DType::F64, {}}), {14});
  // A batch of matrices times a vector: [2,2,3] @ [3] → [2,2].
  Buf bm(DType::F64, {2, 2, 3}, iota(12));
  expectValues(run1(makeOp(OpCode::MatMul), {&bm, &v}, {DType::F64, {2, 2}}), {8, 26, 44, 62});
}

TEST(Kernels, MatMulBatchBroadcast) {
  // [2,1,2,3] @ [3,3,2] → [2,3,2,2]; a's batch (i,*) pairs with b's batch j.
  Buf a(DType::F32, {2, 1, 2, 3}, iota(12, -5));
  Buf b(DType::F32, {3, 3, 2}, iota(18, -7));
  std::vector<std::pair<int64_t, int64_t>> batches;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j) batches.emplace_back(i, j);
  expectValues(run1(makeOp(OpCode::MatMul), {&a, &b}, {DType::F32, {2, 3, 2, 2}}), refMatMul(a, b, 2, 3, 2, batches));
}

TEST(Kernels, MatMulIntHalfAndLarge) {
  Buf a(DType::I32, {2, 2}, {1, -2, 3, 4});
  Buf b(DType::I32, {2, 2}, {5, 6, -7, 8});
  expectValues(run1(makeOp(OpCode::MatMul), {&a, &b}, {DType::I32, {2, 2}}), {19, -10, -13, 50});
  Buf h(DType::F16, {1, 2}, {0.5, 2}), g(DType::F16, {2, 1}, {3, 0.25});
  expectValues(run1(makeOp(OpCode::MatMul), {&h, &g}, {DType::F16, {1, 1}}), {2});
  // Large enough to take the BLAS path.
  const int64_t m = 70, k = 90, n = 65;
  Buf x(DType::F32, {m, k}), y(DType::F32, {k, n});
  for (int64_t i = 0; i < m * k; ++i) x.set(i, std::sin(0.1 * static_cast<double>(i)));
  for (int64_t i = 0; i < k * n; ++i) y.set(i, std::cos(0.3 * static_cast<double>(i)));
  expectValues(run1(makeOp(OpCode::MatMul), {&x, &y}, {DType::F32, {m, n}}), refMatMul(x, y, m, k, n, {{0, 0}}), 1e-4);
  Buf bad(DType::F32, {4, 2});
  EXPECT_THROW(run1(makeOp(OpCode::MatMul), {&x, &bad}, {DType::F32, {m, 2}}), KernelError);
}

// Operands stored transposed (folded `transpose` ops) in every flag combination, on a
// product large enough for the library path (split into column blocks), against
// the reference on explicitly transposed copies.
TEST(Kernels, MatMulTransposedOperands) {
  const int64_t m = 96, k = 80, n = 300;
  Buf a(DType::F32, {m, k}), b(DType::F32, {k, n}), at(DType::F32, {k, m}), bt(DType::F32, {n, k});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      a.set(i * k + p, std::sin(0.1 * static_cast<double>(i * k + p)));
      at.set(p * m + i, a.get(i * k + p));
    }
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j) {
      b.set(p * n + j, std::cos(0.3 * static_cast<double>(p * n + j)));
      bt.set(j * k + p, b.get(p * n + j));
    }
  const std::vector<double> want = refMatMul(a, b, m, k, n, {{0, 0}});
  const TensorType out{DType::F32, {m, n}};
  for (int flags = 0; flags < 4; ++flags) {
    const bool ta = flags & 1, tb = flags & 2;
    const Buf& sa = ta ? at : a;
    const Buf& sb = tb ? bt : b;
    PreparedKernel kernel = prepareMatMulTransposed(sa.type, ta, sb.type, tb, out);
    Buf c(DType::F32, {m, n});
    TensorRef ins[2] = {{const_cast<unsigned char*>(sa.bytes.data()), &sa.type},
                         {const_cast<unsigned char*>(sb.bytes.data()), &sb.type}};
    TensorRef outs[1] = {{c.bytes.data(), &c.type}};
    KernelContext ctx;
    kernel(ins, outs, ctx);
    SCOPED_TRACE("transA=" + std::to_string(ta) + " transB=" + std::to_string(tb));
    expectValues(c, want, 1e-4);
  }
  // Rank < 2 cannot be stored transposed; the inner dimensions must agree.
  EXPECT_THROW(prepareMatMulTransposed({DType::F32, {3}}, true, b.type, false, out), KernelError);
  EXPECT_THROW(prepareMatMulTransposed(a.type, true, b.type, false, out), KernelError);
}

// The GEMM's blocks depend on the shape only: the same bits on 1 and on 2
// kernel threads (the thread budget must not change results).
TEST(Kernels, GemmSameBitsOnAnyThreadCount) {
  // Products split by rows (128 rows or more), by depth (fewer rows, B plain: two
  // blocks, four from a depth of 2048, A plain or transposed), by columns (fewer
  // rows, B transposed; or partial products too large to keep), into blocks of
  // uneven sizes; 1, 2 and 3 threads (3 threads give the blocks to threads in
  // another way than 2).
  struct Shape3 {
    int64_t m, n, k;
    bool transA, transB;
  };
  for (const Shape3& sh : {Shape3{64, 512, 784, false, false}, Shape3{784, 256, 64, true, false},
                           Shape3{300, 130, 1024, false, true}, Shape3{130, 333, 200, true, true},
                           Shape3{32, 1000, 2100, false, false}, Shape3{33, 300, 601, true, false},
                           Shape3{100, 12000, 300, false, false}, Shape3{64, 520, 300, false, true}}) {
    const int64_t m = sh.m, n = sh.n, k = sh.k;
    SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k << " transA " << sh.transA << " transB " << sh.transB);
    std::vector<float> a(m * k), b(k * n), c1(m * n), c(m * n);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(std::sin(0.01 * static_cast<double>(i)));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(std::cos(0.02 * static_cast<double>(i)));
    const int before = simd::kernelThreads();
    simd::setKernelThreads(1);
    gemmF32(a.data(), b.data(), c1.data(), m, n, k, sh.transA, sh.transB);
    for (int threads : {2, 3}) {
      simd::setKernelThreads(threads);
      std::fill(c.begin(), c.end(), -1.0f);
      gemmF32(a.data(), b.data(), c.data(), m, n, k, sh.transA, sh.transB);
      EXPECT_EQ(std::memcmp(c1.data(), c.data(), c1.size() * sizeof(float)), 0) << threads << " threads";
    }
    simd::setKernelThreads(before);
    double worst = 0;  // and it is the product
    for (int64_t i = 0; i < m; i += 7)
      for (int64_t j = 0; j < n; j += 11) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += static_cast<double>(sh.transA ? a[p * m + i] : a[i * k + p]) * (sh.transB ? b[j * k + p] : b[p * n + j]);
        worst = std::max(worst, std::abs(s - c1[i * n + j]));
      }
    EXPECT_LT(worst, 1e-3);
  }
}

// The product of A [batch, m, k] (stored [batch, k, m] when transA) and B with B
// stored transposed ([n, k] shared by every batch, or [batch, n, k]) against the same
// product with B stored plain: the same bits at 1 and 2 threads, and near the sum in
// double.
void expectTransposedBReadAsPlain(int64_t batch, int64_t m, int64_t n, int64_t k, bool sharedB, bool transA) {
  SCOPED_TRACE(testing::Message() << batch << " x " << m << "x" << n << "x" << k << (sharedB ? " shared B" : "")
                                  << (transA ? " transA" : ""));
  const int64_t bBatch = sharedB ? 1 : batch;
  const TensorType at = transA ? TensorType{DType::F32, {batch, k, m}} : TensorType{DType::F32, {batch, m, k}};
  const TensorType bt = sharedB ? TensorType{DType::F32, {n, k}} : TensorType{DType::F32, {batch, n, k}};
  const TensorType bp = sharedB ? TensorType{DType::F32, {k, n}} : TensorType{DType::F32, {batch, k, n}};
  const TensorType ct{DType::F32, {batch, m, n}};
  std::vector<float> a(batch * m * k), b(bBatch * k * n), bT(bBatch * n * k), plain(batch * m * n), flagged(batch * m * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(std::sin(0.013 * static_cast<double>(i)));
  for (int64_t q = 0; q < bBatch; ++q)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        b[(q * k + p) * n + j] = bT[(q * n + j) * k + p] = static_cast<float>(std::cos(0.7 * static_cast<double>((q * k + p) * n + j)));
  const int before = simd::kernelThreads();
  for (int threads : {1, 2}) {
    simd::setKernelThreads(threads);
    for (bool transB : {false, true}) {
      PreparedKernel kernel = prepareMatMulTransposed(at, transA, transB ? bt : bp, transB, ct);
      TensorRef ins[2] = {{a.data(), &at}, {transB ? bT.data() : b.data(), transB ? &bt : &bp}};
      TensorRef out{transB ? flagged.data() : plain.data(), &ct};
      KernelContext ctx;
      kernel(ins, &out, ctx);
    }
    EXPECT_EQ(std::memcmp(plain.data(), flagged.data(), plain.size() * sizeof(float)), 0) << threads << " threads";
  }
  simd::setKernelThreads(before);
  // The last batch's last element against its sum in double.
  double want = 0;
  for (int64_t p = 0; p < k; ++p) {
    const double av = transA ? a[((batch - 1) * k + p) * m + (m - 1)] : a[((batch - 1) * m + (m - 1)) * k + p];
    want += av * b[((bBatch - 1) * k + p) * n + (n - 1)];
  }
  EXPECT_NEAR(flagged.back(), want, 1e-4 * static_cast<double>(k));
}

// A matmul of 256 rows or more with B stored transposed transposes B first
// (vm/kernels_matmul.cpp): it gives the bits of the same product with B stored plain,
// on 1 and 2 threads, for one product and for a batch whose B broadcasts.
TEST(Kernels, MatMulOfManyRowsReadsATransposedBAsPlain) {
  for (const auto& [batch, m, n, k] : {std::array<int64_t, 4>{1, 512, 128, 512}, std::array<int64_t, 4>{1, 300, 70, 90},
                                       std::array<int64_t, 4>{3, 256, 40, 64}})
    expectTransposedBReadAsPlain(batch, m, n, k, true, false);
}

TEST(Kernels, BatchedMatMulSameBitsOnAnyThreadCount) {
  // 32 small products (attention's shape), split over the threads by batch, and
  // a batch of products large enough to split themselves in blocks.
  for (const auto& [batch, m, k, n] : {std::array<int64_t, 4>{32, 64, 32, 64}, std::array<int64_t, 4>{3, 256, 128, 256}}) {
    std::vector<double> av(static_cast<size_t>(batch * m * k)), bv(static_cast<size_t>(batch * k * n));
    for (size_t i = 0; i < av.size(); ++i) av[i] = std::sin(0.01 * static_cast<double>(i));
    for (size_t i = 0; i < bv.size(); ++i) bv[i] = std::cos(0.02 * static_cast<double>(i));
    Buf a(DType::F32, {batch, m, k}, av), b(DType::F32, {batch, k, n}, bv);
    const int before = simd::kernelThreads();
    std::vector<Buf> results;
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      results.push_back(run1(makeOp(OpCode::MatMul), {&a, &b}, {DType::F32, {batch, m, n}}));
    }
    simd::setKernelThreads(before);
    EXPECT_EQ(results[0].bytes, results[1].bytes) << batch << " batches";
    EXPECT_EQ(results[0].bytes, results[2].bytes) << batch << " batches";
    // The last batch's first element is its product.
    double s = 0;
    for (int64_t p = 0; p < k; ++p) s += av[static_cast<size_t>((batch - 1) * m * k + p)] * bv[static_cast<size_t>((batch - 1) * k * n + p * n)];
    float got;
    std::memcpy(&got, results[0].bytes.data() + static_cast<size_t>((batch - 1) * m * n) * sizeof(float), sizeof(float));
    EXPECT_NEAR(got, s, 1e-3);
  }
}

// Batched products of fewer rows with B stored transposed (attention's backward)
// transpose each matrix of B just before its product (vm/kernels_matmul.cpp): the
// bits of the same products with B stored plain, at 1 and 2 threads, with one B per
// batch and with one B that every batch shares, and with B transposed and A too
// (A's flag keeps the transposed read).
TEST(Kernels, BatchedMatMulReadsEachTransposedBAsPlain) {
  struct Product {
    int64_t batch, m, n, k;
    bool sharedB, transA;
  };
  for (const Product& p : {Product{32, 64, 64, 32, false, false}, Product{32, 64, 32, 64, false, false},
                           Product{5, 7, 9, 11, false, false}, Product{6, 48, 40, 24, true, false},
                           Product{4, 16, 24, 8, false, true}})
    expectTransposedBReadAsPlain(p.batch, p.m, p.n, p.k, p.sharedB, p.transA);
}

// Attention's per-head products, forward and backward (B and A read transposed by the
// flags), are small products: each element of each head is its sum over the depth in
// order, one FMA per step where the CPU's SIMD table has FMA (vm/simd_kernels.h
// smallGemm), at 1 and 2 threads.
TEST(Kernels, SmallProductsSumEachElementInDepthOrder) {
  const bool fused = std::string(simd::table().isa) != "sse2";
  struct Product {
    int64_t m, n, k;
    bool transA, transB;
  };
  const int64_t batch = 32;
  for (const Product& p : {Product{64, 64, 32, false, false}, Product{64, 32, 64, false, false},
                           Product{64, 64, 32, false, true}, Product{64, 32, 64, true, false},
                           Product{32, 64, 64, true, false}, Product{13, 48, 80, false, false}}) {
    SCOPED_TRACE(testing::Message() << batch << " x " << p.m << "x" << p.n << "x" << p.k << (p.transA ? " transA" : "")
                                    << (p.transB ? " transB" : ""));
    const TensorType at{DType::F32, p.transA ? Shape{batch, p.k, p.m} : Shape{batch, p.m, p.k}};
    const TensorType bt{DType::F32, p.transB ? Shape{batch, p.n, p.k} : Shape{batch, p.k, p.n}};
    const TensorType ct{DType::F32, {batch, p.m, p.n}};
    std::vector<float> a(static_cast<size_t>(at.numElements())), b(static_cast<size_t>(bt.numElements()));
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i)) * 2.5);
    std::vector<float> want(static_cast<size_t>(ct.numElements()));
    for (int64_t h = 0; h < batch; ++h)
      for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j) {
          float acc = 0;
          for (int64_t q = 0; q < p.k; ++q) {
            const float x = a[static_cast<size_t>(h * p.m * p.k + (p.transA ? q * p.m + i : i * p.k + q))];
            const float y = b[static_cast<size_t>(h * p.k * p.n + (p.transB ? j * p.k + q : q * p.n + j))];
            if (fused) {
              acc = std::fma(x, y, acc);
            } else {
              volatile float product = x * y;
              acc = product + acc;
            }
          }
          want[static_cast<size_t>((h * p.m + i) * p.n + j)] = acc;
        }
    const int before = simd::kernelThreads();
    for (int threads : {1, 2}) {
      simd::setKernelThreads(threads);
      std::vector<float> got(want.size(), 7.0f);
      PreparedKernel kernel = prepareMatMulTransposed(at, p.transA, bt, p.transB, ct);
      TensorRef ins[2] = {{a.data(), &at}, {b.data(), &bt}};
      TensorRef out{got.data(), &ct};
      KernelContext ctx;
      kernel(ins, &out, ctx);
      EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0) << threads << " threads";
    }
    simd::setKernelThreads(before);
  }
}

// A product of few rows by a large B stored transposed (a layer's input gradient at a
// small batch) is computed as the transpose of B · Aᵀ (vm/kernels_matmul.cpp): every
// element near its sum in double, the same bits at 1, 2 and 3 threads.
TEST(Kernels, FewRowsByATransposedBGiveTheProductOnAnyThreadCount) {
  for (const auto& [m, n, k] : {std::array<int64_t, 3>{16, 1024, 1024}, std::array<int64_t, 3>{64, 784, 256},
                                std::array<int64_t, 3>{3, 300, 1200}}) {
    SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k);
    const TensorType at{DType::F32, {m, k}}, bt{DType::F32, {n, k}}, ct{DType::F32, {m, n}};
    std::vector<float> a(m * k), b(n * k);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(std::sin(0.013 * static_cast<double>(i)));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(std::cos(0.7 * static_cast<double>(i)));
    const int before = simd::kernelThreads();
    std::vector<std::vector<float>> results;
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      std::vector<float> c(m * n);
      PreparedKernel kernel = prepareMatMulTransposed(at, false, bt, true, ct);
      TensorRef ins[2] = {{a.data(), &at}, {b.data(), &bt}};
      TensorRef out{c.data(), &ct};
      KernelContext ctx;
      kernel(ins, &out, ctx);
      results.push_back(std::move(c));
    }
    simd::setKernelThreads(before);
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
    double worst = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (int64_t p = 0; p < k; ++p) want += static_cast<double>(a[i * k + p]) * b[j * k + p];
        worst = std::max(worst, std::abs(want - results[0][i * n + j]));
      }
    EXPECT_LT(worst, 1e-5 * static_cast<double>(k));
  }
}

// matmul_scaled_add_ (acc = beta acc + alpha (x @ y)) against matmul's product P and
// the scale taken in double: f32 products of one matrix pair with B read as stored are
// added into acc by the GEMM (close to the double figure, the same bits at any thread
// count); every other form (B read transposed, a batch, f64, f16, an operand sharing
// acc's buffer) adds P as scaled_add_ does, bit for bit in f32 and f64.
TEST(Kernels, MatMulScaledAddAddsTheProductIntoAcc) {
  struct Case {
    const char* what;
    DType dtype;
    Shape x, y;
    bool transA, transB, intoGemm, xIsAcc;
  };
  const Case cases[] = {
      {"gemm, x transposed", DType::F32, {64, 48}, {64, 80}, true, false, true, false},
      {"gemm, split by depth", DType::F32, {16, 1024}, {1024, 512}, false, false, true, false},
      {"small", DType::F32, {4, 3}, {3, 5}, false, false, false, false},
      {"y transposed", DType::F32, {40, 64}, {72, 64}, false, true, false, false},
      {"batch", DType::F32, {3, 40, 64}, {64, 36}, false, false, false, false},
      {"f64", DType::F64, {64, 40}, {64, 36}, true, false, false, false},
      {"f16", DType::F16, {8, 16}, {16, 12}, false, false, false, false},
      {"x is acc", DType::F32, {64, 64}, {64, 64}, false, false, false, true},
  };
  const double alpha = -0.375, beta = 0.75;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    auto fill = [](Buf& b, double f) {
      for (int64_t i = 0; i < b.type.numElements(); ++i) b.set(i, std::sin(f * static_cast<double>(i + 1)));
    };
    Buf x(c.dtype, c.x), y(c.dtype, c.y);
    fill(x, 0.37);
    fill(y, 0.11);
    const TensorType xt = x.type, yt = y.type;
    Shape productShape;
    {  // x @ y's shape
      Shape xs = c.x, ys = c.y;
      if (c.transA) std::swap(xs[xs.size() - 1], xs[xs.size() - 2]);
      if (c.transB) std::swap(ys[ys.size() - 1], ys[ys.size() - 2]);
      productShape = Shape(xs.begin(), xs.end() - 1);
      productShape.push_back(ys.back());
    }
    const TensorType accType{c.dtype, productShape};
    const Buf product = run1(makeOp(OpCode::MatMul, {{"transpose_a", Attr::boolean(c.transA)},
                                               {"transpose_b", Attr::boolean(c.transB)}}),
                       {&x, &y}, accType);
    Buf acc0(c.dtype, productShape);
    if (c.xIsAcc) acc0 = x;
    else fill(acc0, 0.23);
    const Op op = makeOp(OpCode::MatMulScaledAddInplace, {{"alpha", Attr::real(alpha)}, {"beta", Attr::real(beta)},
                                                          {"transpose_a", Attr::boolean(c.transA)},
                                                          {"transpose_b", Attr::boolean(c.transB)}});
    const int before = simd::kernelThreads();
    std::vector<Buf> results;
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      Buf acc = acc0;
      const std::vector<TensorType> inTypes{xt, yt, accType}, outTypes{accType};
      PreparedKernel kernel = prepareKernel(op, inTypes, outTypes);
      TensorRef ins[3] = {c.xIsAcc ? acc.ref() : x.ref(), y.ref(), acc.ref()};
      TensorRef out = acc.ref();
      KernelContext ctx;
      kernel(ins, &out, ctx);
      results.push_back(std::move(acc));
    }
    simd::setKernelThreads(before);
    EXPECT_EQ(results[0].bytes, results[1].bytes);
    EXPECT_EQ(results[0].bytes, results[2].bytes);
    const Buf& got = results[0];
    for (int64_t i = 0; i < accType.numElements(); ++i) {
      const double a = acc0.get(i), p = product.get(i);
      if (c.intoGemm) {
        EXPECT_NEAR(got.get(i), beta * a + alpha * p, 1e-6 * (1 + std::abs(p))) << "element " << i;
      } else if (c.dtype == DType::F32) {
        EXPECT_EQ(static_cast<float>(got.get(i)), static_cast<float>(beta) * static_cast<float>(a) +
                                                     static_cast<float>(alpha) * static_cast<float>(p))
            << "element " << i;
      } else if (c.dtype == DType::F64) {
        EXPECT_EQ(got.get(i), beta * a + alpha * p) << "element " << i;
      } else {
        EXPECT_NEAR(got.get(i), beta * a + alpha * p, 2e-3 * (1 + std::abs(p))) << "element " << i;
      }
    }
  }
  // beta 0 keeps scaled_add_'s arithmetic: 0 times a NaN of acc is NaN (a GEMM would
  // not read acc at all).
  Buf x(DType::F32, {64, 48}), y(DType::F32, {48, 40}), acc(DType::F32, {64, 40});
  for (int64_t i = 0; i < acc.type.numElements(); ++i) acc.set(i, i % 2 ? kNaN : 1.0);
  const Op zeroBeta = makeOp(OpCode::MatMulScaledAddInplace, {{"beta", Attr::real(0)}});
  const std::vector<TensorType> inTypes{x.type, y.type, acc.type}, outTypes{acc.type};
  PreparedKernel kernel = prepareKernel(zeroBeta, inTypes, outTypes);
  TensorRef ins[3] = {x.ref(), y.ref(), acc.ref()};
  TensorRef out = acc.ref();
  KernelContext ctx;
  kernel(ins, &out, ctx);
  for (int64_t i = 0; i < acc.type.numElements(); ++i)
    EXPECT_EQ(std::isnan(acc.get(i)), i % 2 == 1) << "element " << i;
}

TEST(Kernels, KernelThreadsRunEveryTaskOnce) {
  // Tasks are claimed by whichever thread is free: each runs exactly once, in
  // any number of splits in a row, whatever the task count (more tasks than
  // threads, fewer, and more than the pool's jobs per split).
  const int before = simd::kernelThreads();
  for (int threads : {2, 3}) {
    simd::setKernelThreads(threads);
    for (int64_t count : {1, 2, 5, 64, 10000}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(count));
      for (int split = 0; split < 20; ++split) simd::parallelTasks(count, [&](int64_t i) { ++runs[i]; });
      int wrong = 0;
      for (auto& r : runs) wrong += r.load() != 20;
      EXPECT_EQ(wrong, 0) << threads << " threads, " << count << " tasks";
    }
    std::vector<int> covered(1 << 20, 0);
    simd::parallelFor(static_cast<int64_t>(covered.size()), 1024, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) ++covered[i];
    });
    EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), static_cast<int64_t>(covered.size()));
  }
  simd::setKernelThreads(before);
}

// ---- reductions ----------------------------------------------------------------

TEST(Kernels, ReduceAxesAndKeepdims) {
  Buf x(DType::F32, {2, 3, 4}, iota(24));
  auto reduce = [&](OpCode c, std::vector<int64_t> axes, Shape outShape) {
    return run1(makeOp(c, {{"axis", ints(axes)}, {"keepdims", Attr::boolean(true)}}), {&x}, {DType::F32, outShape});
  };
  // Negative axis, keepdims.
  std::vector<double> lastSums;
  for (int r = 0; r < 6; ++r) lastSums.push_back(4 * (4 * r) + 6);
  expectValues(reduce(OpCode::Sum, {-1}, {2, 3, 1}), lastSums);
  // Non-adjacent axes [0, 2]: output [1,3,1].
  std::vector<double> e;
  for (int j = 0; j < 3; ++j) {
    double s = 0;
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) s += i * 12 + j * 4 + k;
    e.push_back(s);
  }
  expectValues(reduce(OpCode::Sum, {0, 2}, {1, 3, 1}), e);
  std::vector<double> means;
  for (double v : e) means.push_back(v / 8);
  expectValues(reduce(OpCode::Mean, {2, 0}, {1, 3, 1}), means);
  // Middle axis max / min.
  std::vector<double> mx, mn;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      mx.push_back(i * 12 + 8 + k);
      mn.push_back(i * 12 + k);
    }
  expectValues(reduce(OpCode::Max, {1}, {2, 1, 4}), mx);
  expectValues(reduce(OpCode::Min, {-2}, {2, 1, 4}), mn);
  // Default: all axes, no keepdims.
  expectValues(run1(makeOp(OpCode::Sum), {&x}, {DType::F32, {}}), {276});
}

TEST(Kernels, ReduceKinds) {
  Buf x(DType::F64, {2, 2}, {1, -2, 3, 4});
  auto reduce = [&](OpCode c) { return run1(makeOp(c, {{"axis", Attr::integer(1)}}), {&x}, {DType::F64, {2}}); };
  expectValues(reduce(OpCode::Prod), {-2, 12});
  expectValues(reduce(OpCode::SumSquare), {5, 25});
  expectValues(reduce(OpCode::L1), {3, 7});
  expectValues(reduce(OpCode::L2), {std::sqrt(5.0), 5});
  expectValues(reduce(OpCode::LogSumExp), {std::log(std::exp(1) + std::exp(-2)), std::log(std::exp(3) + std::exp(4))},
               1e-12);
  Buf big(DType::F32, {2}, {1000, 1000});
  expectValues(run1(makeOp(OpCode::LogSumExp), {&big}, {DType::F32, {}}), {1000 + std::log(2.0)});
  Buf n(DType::F32, {3}, {1, kNaN, 2});
  expectValues(run1(makeOp(OpCode::Max), {&n}, {DType::F32, {}}), {kNaN});
  Buf i(DType::I32, {3}, {-7, 2, 0});
  expectValues(run1(makeOp(OpCode::Mean), {&i}, {DType::I32, {}}), {-1});  // -5/3 truncates
  Buf u(DType::U8, {2}, {200, 100});
  expectValues(run1(makeOp(OpCode::Sum), {&u}, {DType::U8, {}}), {44});  // wraps
  Buf empty(DType::F32, {0, 2});
  expectValues(run1(makeOp(OpCode::Sum, {{"axis", Attr::integer(0)}}), {&empty}, {DType::F32, {2}}), {0, 0});
  expectValues(run1(makeOp(OpCode::Max, {{"axis", Attr::integer(0)}}), {&empty}, {DType::F32, {2}}), {-kInf, -kInf});
}

TEST(Kernels, ArgMaxArgMin) {
  Buf x(DType::F32, {2, 3}, {1, 5, 5, 7, 0, 7});
  expectValues(run1(makeOp(OpCode::ArgMax, {{"axis", Attr::integer(-1)}}), {&x}, {DType::I32, {2}}), {1, 0});
  expectValues(run1(makeOp(OpCode::ArgMin), {&x}, {DType::I32, {3}}), {0, 1, 0});
  expectValues(run1(makeOp(OpCode::ArgMax, {{"keepdims", Attr::boolean(true)}}), {&x}, {DType::I32, {1, 3}}), {1, 0, 1});
}

TEST(Kernels, SoftmaxAndLogSoftmax) {
  Buf x(DType::F32, {2, 3}, {1, 2, 3, 1000, 1000, 1000});
  const double z = std::exp(1) + std::exp(2) + std::exp(3);
  expectValues(run1(makeOp(OpCode::Softmax), {&x}, x.type),
               {std::exp(1) / z, std::exp(2) / z, std::exp(3) / z, 1 / 3.0, 1 / 3.0, 1 / 3.0});
  // axis 0 (needs a reorder): pairs (1,1000), (2,1000), (3,1000).
  Buf r = run1(makeOp(OpCode::LogSoftmax, {{"axis", Attr::integer(0)}}), {&x}, x.type);
  for (int j = 0; j < 3; ++j) {
    const double a = j + 1, b = 1000, lse = b + std::log1p(std::exp(a - b));
    EXPECT_NEAR(r.get(j), a - lse, 1e-3);
    EXPECT_NEAR(r.get(3 + j), b - lse, 1e-3);
  }
}

// ---- shape ---------------------------------------------------------------------

TEST(Kernels, TransposePerms) {
  Buf x(DType::I32, {2, 3, 4}, iota(24));
  Buf t = run1(makeOp(OpCode::Transpose), {&x}, {DType::I32, {4, 3, 2}});
  Buf p = run1(makeOp(OpCode::Transpose, {{"perm", ints({1, -1, 0})}}), {&x}, {DType::I32, {3, 4, 2}});
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        EXPECT_EQ(t.get(k * 6 + j * 2 + i), i * 12 + j * 4 + k);
        EXPECT_EQ(p.get(j * 8 + k * 2 + i), i * 12 + j * 4 + k);
      }
  Buf m(DType::F16, {2, 3}, {1, 2, 3, 4, 5, 6});
  run(makeOp(OpCode::TransposeInplace), {&m}, {TensorType{DType::F16, {3, 2}}});
  expectValues(m, {1, 4, 2, 5, 3, 6});
}

// Every permutation of rank-4 tensors, element by element against the index
// arithmetic: runs of the innermost dim short and long (3 and 70 elements), dims
// of size 1 (dropped before the copy), and the four element sizes the strided copy
// distinguishes.
TEST(Kernels, TransposeEveryPermOfRankFour) {
  for (const Shape& shape : {Shape{2, 3, 4, 3}, Shape{3, 1, 2, 70}, Shape{1, 5, 1, 6}}) {
    for (DType dt : {DType::I8, DType::F16, DType::I32, DType::F64}) {
      const int64_t n = numElements(shape);
      std::vector<double> values(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<double>(i % 100);
      Buf x(dt, shape, values);
      std::vector<int64_t> perm{0, 1, 2, 3};
      do {
        Shape out(4);
        for (int d = 0; d < 4; ++d) out[d] = shape[perm[d]];
        Buf t = run1(makeOp(OpCode::Transpose, {{"perm", ints(perm)}}), {&x}, {dt, out});
        const Shape in{shape[1] * shape[2] * shape[3], shape[2] * shape[3], shape[3], 1};
        int64_t at = 0;
        for (int64_t a = 0; a < out[0]; ++a)
          for (int64_t b = 0; b < out[1]; ++b)
            for (int64_t c = 0; c < out[2]; ++c)
              for (int64_t d = 0; d < out[3]; ++d, ++at) {
                const int64_t src = a * in[perm[0]] + b * in[perm[1]] + c * in[perm[2]] + d * in[perm[3]];
                ASSERT_EQ(t.get(at), values[static_cast<size_t>(src)])
                    << dtypeName(dt) << " " << at << " of perm " << perm[0] << perm[1] << perm[2] << perm[3];
              }
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
  }
  // Rows of a 2-D slice read backwards and with a step (the copy's strided runs).
  Buf m(DType::F32, {4, 9}, iota(36));
  expectValues(run1(makeOp(OpCode::Slice, {{"start", ints({3, 8})}, {"stop", ints({-5, -10})}, {"step", ints({-2, -3})}}),
                    {&m}, {DType::F32, {2, 3}}),
               {35, 32, 29, 17, 14, 11});
}

TEST(Kernels, SliceNegativeAndStep) {
  Buf x(DType::F32, {10}, iota(10));
  auto slice = [&](int64_t b, int64_t e, int64_t s, Shape out) {
    return run1(makeOp(OpCode::Slice, {{"start", ints({b})}, {"stop", ints({e})}, {"step", ints({s})}}), {&x},
                {DType::F32, out});
  };
  expectValues(slice(-1, -11, -3, {4}), {9, 6, 3, 0});
  expectValues(slice(2, 100, 3, {3}), {2, 5, 8});
  expectValues(slice(-3, -1, 1, {2}), {7, 8});
  expectValues(slice(5, 2, 1, {0}), {});
  expectValues(slice(100, -100, -4, {3}), {9, 5, 1});
  Buf m(DType::I8, {3, 4}, iota(12));
  expectValues(run1(makeOp(OpCode::Slice, {{"start", ints({1})}, {"stop", ints({-1})}, {"axes", ints({-1})}}), {&m},
                    {DType::I8, {3, 2}}),
               {1, 2, 5, 6, 9, 10});
  EXPECT_THROW(slice(0, 5, 1, {4}), KernelError);  // result type disagrees
}

TEST(Kernels, ConcatSplitBroadcastInit) {
  Buf a(DType::U16, {2, 1}, {1, 2}), b(DType::U16, {2, 2}, {3, 4, 5, 6});
  Buf c = run1(makeOp(OpCode::Concat, {{"axis", Attr::integer(-1)}}), {&a, &b}, {DType::U16, {2, 3}});
  expectValues(c, {1, 3, 4, 2, 5, 6});
  auto parts = run(makeOp(OpCode::Split, {{"splits", ints({2, 1})}, {"axis", Attr::integer(1)}}), {&c},
                   {TensorType{DType::U16, {2, 2}}, TensorType{DType::U16, {2, 1}}});
  expectValues(parts[0], {1, 3, 2, 5});
  expectValues(parts[1], {4, 6});
  auto rows = run(makeOp(OpCode::Split, {{"splits", ints({1, 1})}}), {&c},
                  {TensorType{DType::U16, {1, 3}}, TensorType{DType::U16, {1, 3}}});
  expectValues(rows[1], {2, 5, 6});
  Buf v(DType::F64, {3, 1}, {1, 2, 3});
  expectValues(run1(makeOp(OpCode::Broadcast, {{"shape", ints({2, 3, 2})}}), {&v}, {DType::F64, {2, 3, 2}}),
               {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
  Op init = makeOp(OpCode::Init, {{"shape", ints({2})}, {"dtype", Attr::word("f32")}});
  auto z = run(init, {}, {TensorType{DType::F32, {2}}});
  z[0].set(0, 5);
  z = run(init, {}, {TensorType{DType::F32, {2}}});
  expectValues(z[0], {0, 0});
}

// ---- indexing, normalisation, losses ----------------------------------------------

// group_norm_grad against float64 sums of its formulas, and the same bits on any thread
// count (images in blocks fixed by the shape; a large operand splits its blocks).
TEST(Kernels, GroupNormGradMatchesItsFormulasOnAnyThreadCount) {
  const int64_t N = 12, C = 8, G = 2, S = 300, cpg = C / G, L = cpg * S;
  Buf x(DType::F32, {N, C, S}), g(DType::F32, {N, C, S}), gamma(DType::F32, {C});
  for (int64_t i = 0; i < x.type.numElements(); ++i) {
    x.set(i, std::sin(0.013 * static_cast<double>(i)) * 2 + 0.5);
    g.set(i, std::cos(0.029 * static_cast<double>(i)));
  }
  for (int64_t c = 0; c < C; ++c) gamma.set(c, 0.5 + 0.25 * static_cast<double>(c));
  const double eps = 1e-5;
  std::vector<double> dx(static_cast<size_t>(N * C * S)), dgamma(C, 0.0), dbeta(C, 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t grp = 0; grp < G; ++grp) {
      const int64_t at = (n * C + grp * cpg) * S;
      double mean = 0, var = 0, m1 = 0, m2 = 0;
      for (int64_t j = 0; j < L; ++j) mean += x.get(at + j) / L;
      for (int64_t j = 0; j < L; ++j) var += (x.get(at + j) - mean) * (x.get(at + j) - mean) / L;
      const double rstd = 1 / std::sqrt(var + eps);
      for (int64_t j = 0; j < L; ++j) {
        const double xh = (x.get(at + j) - mean) * rstd, d = g.get(at + j) * gamma.get(grp * cpg + j / S);
        m1 += d / L, m2 += d * xh / L;
        dgamma[static_cast<size_t>(grp * cpg + j / S)] += g.get(at + j) * xh;
        dbeta[static_cast<size_t>(grp * cpg + j / S)] += g.get(at + j);
      }
      for (int64_t j = 0; j < L; ++j) {
        const double xh = (x.get(at + j) - mean) * rstd, d = g.get(at + j) * gamma.get(grp * cpg + j / S);
        dx[static_cast<size_t>(at + j)] = (d - m1 - xh * m2) * rstd;
      }
    }
  const Op op = makeOp(OpCode::GroupNormGrad, {{"groups", Attr::integer(G)}});
  const TensorType dgType{DType::F32, {C}};
  const int before = simd::kernelThreads();
  std::vector<Buf> first;
  for (int threads : {1, 2, 3}) {
    simd::setKernelThreads(threads);
    std::vector<Buf> r = run(op, {&x, &gamma, &g}, {x.type, dgType, dgType});
    expectValues(r[0], dx, 1e-4);
    expectValues(r[1], dgamma, 1e-4);
    expectValues(r[2], dbeta, 1e-4);
    if (first.empty()) {
      first = std::move(r);
    } else {
      for (size_t k = 0; k < 3; ++k) EXPECT_EQ(r[k].bytes, first[k].bytes) << "result " << k << ", " << threads << " threads";
    }
  }
  simd::setKernelThreads(before);
}

// gather_grad adds each slab of g at its index, indices in order, so every element's
// sum is the same additions on any thread count: one outer slab split into runs of
// elements (bounds inside rows), and several split by slabs. The values are the sums a one-thread loop over the indices
// gives (rows that no index names stay 0).
TEST(Kernels, GatherGradSameBitsOnAnyThreadCount) {
  struct Case {
    int64_t outer, size, numIndices, inner;
  };
  for (const Case c : {Case{1, 50, 300, 1024}, Case{1, 700, 300, 37}, Case{6, 40, 200, 64}}) {
    Buf g(DType::F32, {c.outer, c.numIndices, c.inner});
    for (int64_t i = 0; i < g.type.numElements(); ++i) g.set(i, std::sin(0.37 * static_cast<double>(i)) * 1e3);
    Buf idx(DType::I32, {c.numIndices});
    for (int64_t j = 0; j < c.numIndices; ++j) idx.set(j, static_cast<double>((j * 7) % (c.size - 1)) - (j % 3 == 0 ? c.size - 1 : 0));
    const Op op = makeOp(OpCode::GatherGrad, {{"size", Attr::integer(c.size)}, {"axis", Attr::integer(1)}});
    const TensorType out{DType::F32, {c.outer, c.size, c.inner}};
    std::vector<float> expected(static_cast<size_t>(out.numElements()), 0.0f);
    const float* gv = reinterpret_cast<const float*>(g.bytes.data());
    for (int64_t o = 0; o < c.outer; ++o)
      for (int64_t j = 0; j < c.numIndices; ++j) {
        int64_t row = static_cast<int64_t>(idx.get(j));
        if (row < 0) row += c.size;
        for (int64_t k = 0; k < c.inner; ++k)
          expected[static_cast<size_t>((o * c.size + row) * c.inner + k)] += gv[(o * c.numIndices + j) * c.inner + k];
      }
    const int before = simd::kernelThreads();
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      const Buf r = run1(op, {&g, &idx}, out);
      EXPECT_EQ(std::memcmp(r.bytes.data(), expected.data(), expected.size() * sizeof(float)), 0)
          << threads << " threads, outer " << c.outer;
    }
    simd::setKernelThreads(before);
  }
}

TEST(Kernels, GatherAndScatter) {
  Buf x(DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  Buf idx(DType::I32, {2, 2}, {2, 0, -1, 1});
  expectValues(run1(makeOp(OpCode::Gather), {&x, &idx}, {DType::F32, {2, 2, 2}}), {5, 6, 1, 2, 5, 6, 3, 4});
  Buf col(DType::U32, {1}, {1});
  expectValues(run1(makeOp(OpCode::Gather, {{"axis", Attr::integer(1)}}), {&x, &col}, {DType::F32, {3, 1}}), {2, 4, 6});
  Buf bad(DType::I32, {1}, {3});
  try {
    run1(makeOp(OpCode::Gather), {&x, &bad}, {DType::F32, {1, 2}});
    FAIL() << "expected KernelError";
  } catch (const KernelError& e) {
    EXPECT_STREQ(e.what(), "index 3 is out of range for an axis of size 3");
  }
  // ScatterElements on axis 0: out[idx[i][j]][j] = v[i][j].
  Buf si(DType::I32, {1, 2}, {2, 0});
  Buf sv(DType::F32, {1, 2}, {-1, -2});
  expectValues(run1(makeOp(OpCode::Scatter), {&x, &si, &sv}, x.type), {1, -2, 3, 4, -1, 6});
}

TEST(Kernels, DynamicSliceClampsAndUpdates) {
  Buf x(DType::I32, {4, 3}, iota(12));
  Buf at(DType::U32, {1}, {1});
  Op ds = makeOp(OpCode::DynamicSlice, {{"axes", ints({0})}, {"sizes", ints({2})}});
  expectValues(run1(ds, {&x, &at}, {DType::I32, {2, 3}}), {3, 4, 5, 6, 7, 8});
  Buf far(DType::I32, {1}, {10});  // clamps to start 2
  expectValues(run1(ds, {&x, &far}, {DType::I32, {2, 3}}), {6, 7, 8, 9, 10, 11});
  Buf at2(DType::I32, {2}, {3, 1});
  Buf u(DType::I32, {1, 2}, {-1, -2});
  Op du = makeOp(OpCode::DynamicUpdate, {{"axes", ints({0, 1})}, {"sizes", ints({1, 2})}});
  expectValues(run1(du, {&x, &at2, &u}, x.type), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2});
  expectValues(x, iota(12));  // not in place: x unchanged
  Buf column(DType::I32, {4, 1}, {-5, -6, -7, -8});
  run(makeOp(OpCode::DynamicUpdateInplace, {{"axes", ints({1})}, {"sizes", ints({1})}}), {&x, &at, &column}, {x.type});
  expectValues(x, {0, -5, 2, 3, -6, 5, 6, -7, 8, 9, -8, 11});
}

TEST(Kernels, SubsampleOneHotCumSumTopK) {
  Buf x(DType::F32, {3, 4}, iota(12));
  expectValues(run1(makeOp(OpCode::Subsample, {{"strides", ints({2, 3})}}), {&x}, {DType::F32, {2, 2}}), {0, 3, 8, 11});
  Buf labels(DType::I32, {3}, {2, 0, 7});
  expectValues(run1(makeOp(OpCode::OneHot, {{"num_classes", Attr::integer(3)}}), {&labels}, {DType::F32, {3, 3}}),
               {0, 0, 1, 1, 0, 0, 0, 0, 0});
  expectValues(run1(makeOp(OpCode::CumSum, {{"axis", Attr::integer(1)}}), {&x}, x.type),
               {0, 1, 3, 6, 4, 9, 15, 22, 8, 17, 27, 38});
  expectValues(run1(makeOp(OpCode::CumSum), {&x}, x.type), {0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21});
  Buf v(DType::F32, {2, 4}, {3, 1, 4, 1, 5, 9, 2, 6});
  auto top = run(makeOp(OpCode::TopK, {{"k", Attr::integer(2)}}), {&v},
                 {TensorType{DType::F32, {2, 2}}, TensorType{DType::I32, {2, 2}}});
  expectValues(top[0], {4, 3, 9, 6});
  expectValues(top[1], {2, 0, 1, 3});
  auto low = run(makeOp(OpCode::TopK, {{"k", Attr::integer(3)}, {"largest", Attr::boolean(false)}}), {&v},
                 {TensorType{DType::F32, {2, 3}}, TensorType{DType::I32, {2, 3}}});
  expectValues(low[0], {1, 1, 3, 2, 5, 6});
  expectValues(low[1], {1, 3, 0, 2, 0, 3});
}

TEST(Kernels, Normalisation) {
  Buf x(DType::F32, {2, 3}, {1, 2, 3, 2, 4, 6});
  Buf g(DType::F32, {3}, {1, 2, 1}), b(DType::F32, {3}, {0, 0, 1});
  Buf ln = run1(makeOp(OpCode::LayerNorm), {&x, &g, &b}, x.type);
  const double s1 = std::sqrt(2.0 / 3 + 1e-5), s2 = std::sqrt(8.0 / 3 + 1e-5);
  expectValues(ln, {-1 / s1, 0, 1 / s1 + 1, -2 / s2, 0, 2 / s2 + 1}, 1e-5);
  // group_norm with 1 group per channel over [N=1, C=2, 2].
  Buf y(DType::F64, {1, 2, 2}, {1, 3, 10, 10});
  Buf g2(DType::F64, {2}, {2, 1}), b2(DType::F64, {2}, {0, 5});
  const double e = 1 / std::sqrt(1 + 1e-5);
  expectValues(run1(makeOp(OpCode::GroupNorm, {{"groups", Attr::integer(2)}}), {&y, &g2, &b2}, y.type),
               {-2 * e, 2 * e, 5, 5}, 1e-9);
  Buf mean(DType::F64, {2}, {1, 10}), var(DType::F64, {2}, {4, 1});
  expectValues(run1(makeOp(OpCode::BatchNormInference, {{"epsilon", Attr::real(0)}}), {&y, &g2, &b2, &mean, &var}, y.type),
               {0, 2, 5, 5}, 1e-9);
}

TEST(Kernels, NllLoss) {
  Buf p(DType::F32, {3, 2}, {0.5, 0.5, 0.25, 0.75, 0.1, 0.9});
  Buf l(DType::I32, {3}, {0, 1, 1});
  const double a = -std::log(0.5), b = -std::log(0.75), c = -std::log(0.9);
  expectValues(run1(makeOp(OpCode::NllLoss), {&p, &l}, {DType::F32, {}}), {(a + b + c) / 3}, 1e-6);
  expectValues(run1(makeOp(OpCode::NllLoss, {{"reduction", Attr::word("none")}}), {&p, &l}, {DType::F32, {3}}), {a, b, c},
               1e-6);
  expectValues(run1(makeOp(OpCode::NllLoss, {{"ignore_index", Attr::integer(1)}, {"reduction", Attr::word("sum")}}),
                    {&p, &l}, {DType::F32, {}}),
               {a}, 1e-6);
  expectValues(run1(makeOp(OpCode::NllLoss, {{"log_prob", Attr::boolean(true)}}), {&p, &l}, {DType::F32, {}}),
               {-(0.5 + 0.75 + 0.9) / 3}, 1e-6);
  Buf bad(DType::I32, {3}, {0, 2, 1});
  EXPECT_THROW(run1(makeOp(OpCode::NllLoss), {&p, &bad}, {DType::F32, {}}), KernelError);
}

TEST(Kernels, ConvAndPools) {
  Buf x(DType::F32, {1, 1, 3, 3}, iota(9, 1));
  Buf w(DType::F32, {1, 1, 2, 2}, {1, 0, 0, 1});
  expectValues(run1(makeOp(OpCode::Conv), {&x, &w}, {DType::F32, {1, 1, 2, 2}}), {6, 8, 12, 14});
  expectValues(run1(makeOp(OpCode::Conv, {{"padding", ints({1, 1, 1, 1})}, {"stride", ints({2, 2})}}), {&x, &w},
                    {DType::F32, {1, 1, 2, 2}}),
               {1, 3, 7, 14});
  Buf xg(DType::F64, {1, 2, 1, 2}, {1, 2, 3, 4});
  Buf wg(DType::F64, {2, 1, 1, 1}, {10, 100});
  expectValues(run1(makeOp(OpCode::Conv, {{"groups", Attr::integer(2)}}), {&xg, &wg}, {DType::F64, {1, 2, 1, 2}}),
               {10, 20, 300, 400});
  Buf x1(DType::F32, {1, 1, 5}, iota(5));
  Buf w1(DType::F32, {1, 1, 2}, {1, 1});
  expectValues(run1(makeOp(OpCode::Conv, {{"dilation", ints({2})}}), {&x1, &w1}, {DType::F32, {1, 1, 3}}), {2, 4, 6});
  // Two images, two input and three output channels against a direct sum.
  Buf xb(DType::F32, {2, 2, 4, 3}), wb(DType::F32, {3, 2, 2, 2});
  for (int64_t i = 0; i < 48; ++i) xb.set(i, std::sin(0.7 * static_cast<double>(i)));
  for (int64_t i = 0; i < 24; ++i) wb.set(i, std::cos(0.3 * static_cast<double>(i)));
  std::vector<double> ref;
  for (int n = 0; n < 2; ++n)
    for (int o = 0; o < 3; ++o)
      for (int oh = 0; oh < 3; ++oh)
        for (int ow = 0; ow < 2; ++ow) {
          double acc = 0;
          for (int c = 0; c < 2; ++c)
            for (int kh = 0; kh < 2; ++kh)
              for (int kw = 0; kw < 2; ++kw)
                acc += xb.get(((n * 2 + c) * 4 + oh + kh) * 3 + ow + kw) * wb.get(((o * 2 + c) * 2 + kh) * 2 + kw);
          ref.push_back(acc);
        }
  expectValues(run1(makeOp(OpCode::Conv), {&xb, &wb}, {DType::F32, {2, 3, 3, 2}}), ref, 1e-5);

  expectValues(run1(makeOp(OpCode::MaxPool, {{"kernel", ints({2, 2})}}), {&x}, {DType::F32, {1, 1, 1, 1}}), {5});
  expectValues(run1(makeOp(OpCode::MaxPool, {{"kernel", ints({2, 2})}, {"stride", ints({1, 1})}}), {&x},
                    {DType::F32, {1, 1, 2, 2}}),
               {5, 6, 8, 9});
  expectValues(run1(makeOp(OpCode::AveragePool, {{"kernel", ints({2, 2})}, {"padding", ints({1, 1, 0, 0})}}), {&x},
                    {DType::F32, {1, 1, 2, 2}}),
               {1, 2.5, 5.5, 7});
  Buf xi(DType::I32, {1, 1, 1, 3}, {1, 2, 4});
  expectValues(run1(makeOp(OpCode::AveragePool, {{"kernel", ints({1, 2})}, {"stride", ints({1, 1})}}), {&xi},
                    {DType::I32, {1, 1, 1, 2}}),
               {1, 3});
}

TEST(Kernels, AdamPieces) {
  Buf m(DType::F32, {2}, {0.1, -0.2}), v(DType::F32, {2}, {0.01, 0.04});
  Buf step(DType::F32, {}, {1});
  expectValues(run1(makeOp(OpCode::AdamUpdater), {&m, &v, &step}, m.type),
               {1 / (std::sqrt(10.0) + 1e-8), -2 / (std::sqrt(40.0) + 1e-8)}, 1e-5);
  expectValues(run1(makeOp(OpCode::AdamUpdater, {{"eps", Attr::real(0)}}), {&m, &v}, m.type), {1, -1}, 1e-6);
  Buf w(DType::F32, {2}, {1, 2}), u(DType::F32, {2}, {0.5, -1});
  run(makeOp(OpCode::AdamVarUpdate, {{"lr", Attr::real(0.1)}}), {&w, &u}, {w.type});
  expectValues(w, {0.95, 2.1});
}

// ---- variable updates ------------------------------------------------------------

TEST(Kernels, VariableUpdates) {
  Buf t(DType::F32, {2, 2}, {1, 2, 3, 4});
  Buf x(DType::F32, {2}, {10, 20});
  run(makeOp(OpCode::Accumulate), {&t, &x}, {t.type});
  expectValues(t, {11, 22, 13, 24});
  run(makeOp(OpCode::Accumulate, {{"f", Attr::real(-0.5)}}), {&t, &x}, {t.type});
  expectValues(t, {6, 12, 8, 14});
  Buf f(DType::F32, {}, {2});
  run(makeOp(OpCode::Accumulate), {&t, &x, &f}, {t.type});
  expectValues(t, {26, 52, 28, 54});
  run(makeOp(OpCode::AccumulatorScale, {{"f", Attr::real(0.5)}}), {&t}, {t.type});
  expectValues(t, {13, 26, 14, 27});
  Buf g(DType::F32, {2, 2}, {1, 2, 3, 4});
  run(makeOp(OpCode::AccumulateSquare, {{"f", Attr::real(2)}}), {&t, &g}, {t.type});
  expectValues(t, {15, 34, 32, 59});
  run(makeOp(OpCode::AccumulateMovingAverage, {{"f", Attr::real(0.25)}}), {&t, &g}, {t.type});
  expectValues(t, {15 * 0.25 + 0.75, 34 * 0.25 + 1.5, 32 * 0.25 + 2.25, 59 * 0.25 + 3});
  Buf step(DType::I32, {}, {3});
  Buf m(DType::F32, {2}, {4, 8}), y(DType::F32, {2}, {8, 0});
  run(makeOp(OpCode::AccumulateMean), {&m, &y, &step}, {m.type});
  expectValues(m, {5, 6});
  run(makeOp(OpCode::CopyVarUpdate), {&m, &x}, {m.type});
  expectValues(m, {10, 20});
  Buf nan(DType::F32, {2}, {kNaN, kInf});
  run(makeOp(OpCode::AccumulatorScale, {{"f", Attr::real(0)}}), {&nan}, {nan.type});
  expectValues(nan, {0, 0});
  run(makeOp(OpCode::AccumulatorZero), {&m}, {m.type});
  expectValues(m, {0, 0});
  Buf i(DType::I8, {2}, {100, -100});
  Buf j(DType::I8, {2}, {100, -100});
  run(makeOp(OpCode::Accumulate), {&i, &j}, {i.type});
  expectValues(i, {-56, 56});  // wraps like add_
}

// ---- a result never depends on its position -----------------------------------

// Every op of the Unary kernel family (ops.def), with the C type `T`: each hard
// value is placed at every position of a vector long enough for the widest
// vector loop and a scalar tail, and each result is compared with the op on that
// value alone (a one-element tensor: the scalar path). Bits must agree (any NaN
// matches any NaN), so a vector path that loses the sign of a zero shows.
struct UnaryRow {
  OpCode code;
  std::string_view kernel, infer;
};
constexpr UnaryRow kOpRows[] = {
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) {OpCode::id, #kernel, #infer},
#include "ir/ops.def"
#undef PIR_OP
};

template <class T> std::vector<T> hardValues() {
  using L = std::numeric_limits<T>;
  const T big = std::is_same_v<T, float> ? T(8388607.5) : T(4503599627370495.5);  // the largest x.5
  const T belowHalf = std::nextafter(T(0.5), T(0));
  std::vector<T> v = {T(0),      T(1.5),          T(2.5),       T(0.5),    belowHalf,   T(1),
                      L::infinity(), L::quiet_NaN(), L::denorm_min(), L::min(), L::max(), big,
                      T(1e-8),   T(88.75),        T(-103.5),    T(710.5),  T(3.25),     T(1e30)};
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  return v;
}

template <class T> void expectPositionIndependent(DType dt) {
  const std::vector<T> hard = hardValues<T>();
  const int64_t n = 67;  // 4 x 16 lanes + a tail of 3
  std::vector<std::pair<std::string, Attr>> clipAttrs = {{"min", Attr::real(-1.5)}, {"max", Attr::real(0.5)}};
  for (const UnaryRow& row : kOpRows) {
    if (!row.kernel.starts_with("Unary(") || row.infer == "UnaryBool") continue;
    const DType outDt = row.infer == "UnaryPredicate" ? DType::Bool : dt;
    for (int variant = 0; variant < 2; ++variant) {
      const bool withAttrs = variant == 1;
      if (withAttrs && row.code != OpCode::Clip && row.code != OpCode::ClipInplace) continue;
      const Op op = makeOp(row.code, withAttrs ? clipAttrs : std::vector<std::pair<std::string, Attr>>{});
      SCOPED_TRACE(std::string(opName(row.code)) + (withAttrs ? " {min = -1.5, max = 0.5}" : "") + " on " +
                   std::string(dtypeName(dt)));
      // The op on each value alone.
      std::vector<double> alone;
      std::vector<std::vector<unsigned char>> aloneBits;
      for (T h : hard) {
        Buf x(dt, {1});
        std::memcpy(x.bytes.data(), &h, sizeof(T));
        Buf y = run1(op, {&x}, {outDt, {1}});
        aloneBits.push_back(y.bytes);
      }
      const int outSize = dtypeSize(outDt);
      for (int64_t shift = 0; shift < n; ++shift) {
        Buf x(dt, {n});
        for (int64_t i = 0; i < n; ++i) {
          const T h = hard[static_cast<size_t>((i + shift) % static_cast<int64_t>(hard.size()))];
          std::memcpy(x.bytes.data() + i * sizeof(T), &h, sizeof(T));
        }
        Buf y = run1(op, {&x}, {outDt, {n}});
        for (int64_t i = 0; i < n; ++i) {
          const size_t k = static_cast<size_t>((i + shift) % static_cast<int64_t>(hard.size()));
          const unsigned char* got = y.bytes.data() + i * outSize;
          const std::vector<unsigned char>& want = aloneBits[k];
          const bool bothNaN = outDt != DType::Bool && std::isnan(y.get(i)) && [&] {
            Buf w(outDt, {1});
            w.bytes = want;
            return std::isnan(w.get(0));
          }();
          if (bothNaN) continue;
          if (std::memcmp(got, want.data(), static_cast<size_t>(outSize)) != 0) {
            Buf w(outDt, {1});
            w.bytes = want;
            ADD_FAILURE() << "x = " << static_cast<double>(hard[k]) << " at position " << i << ": " << y.get(i)
                          << (std::signbit(y.get(i)) ? " (sign set)" : "") << ", alone: " << w.get(0)
                          << (std::signbit(w.get(0)) ? " (sign set)" : "");
            return;  // one report per op
          }
        }
      }
    }
  }
}

TEST(Kernels, EveryUnaryOpGivesTheSameBitsAtEveryPosition) {
  expectPositionIndependent<float>(DType::F32);
  expectPositionIndependent<double>(DType::F64);
}

TEST(Kernels, DispatchCoverage) {
  EXPECT_TRUE(hasKernel(OpCode::Add));
  EXPECT_TRUE(hasKernel(OpCode::MatMul));
  EXPECT_TRUE(hasKernel(OpCode::Reshape));
  EXPECT_TRUE(hasKernel(OpCode::Conv));
  EXPECT_FALSE(hasKernel(OpCode::Call));
  EXPECT_FALSE(hasKernel(OpCode::PrintTensor));  // a VM instruction
  EXPECT_FALSE(hasKernel(OpCode::HostLoad));
  Buf x(DType::F32, {1});
  EXPECT_THROW(run1(makeOp(OpCode::Call), {&x}, x.type), KernelError);
  Buf b(DType::Bool, {1}, {1});
  EXPECT_THROW(run1(makeOp(OpCode::Add), {&b, &b}, b.type), KernelError);
}

}  // namespace
}  // namespace pir::vm
