// Float numerics of the elementwise and reduction kernels (ops.md: IEEE,
// subnormals handled, sqrt correctly rounded, a result never depends on where
// it sits in the tensor). Every op runs on tensors of lengths 1..67 holding the
// hard values (±0, subnormals, the overflow/underflow edges, ±inf, NaN) at
// every position; each result must equal, bit for bit, the result for the
// same value alone in a length-1 tensor, and be within an ulp bound of a long
// double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ir/half.h"
#include "vm/conv_depthwise.h"
#include "vm/conv_direct.h"
#include "vm/kernels.h"
#include "vm/kernel_util.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

using LD = long double;

// ---- tensors of one dtype, values as long double ---------------------------------

struct Tensor {
  TensorType type;
  std::vector<unsigned char> bytes;
  Tensor(DType dt, Shape shape) : type{dt, std::move(shape)} {
    bytes.assign(static_cast<size_t>(type.numElements() * dtypeSize(dt)), 0);
  }
  int64_t size() const { return type.numElements(); }
  void set(int64_t i, LD v) {
    unsigned char* p = bytes.data() + i * dtypeSize(type.dtype);
    if (type.dtype == DType::F32) {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
    } else if (type.dtype == DType::F64) {
      const double d = static_cast<double>(v);
      std::memcpy(p, &d, 8);
    } else {
      const uint16_t h = floatToHalf(static_cast<float>(v));
      std::memcpy(p, &h, 2);
    }
  }
  LD get(int64_t i) const {
    const unsigned char* p = bytes.data() + i * dtypeSize(type.dtype);
    if (type.dtype == DType::F32) {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    if (type.dtype == DType::F64) {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  // The element's bytes, for bit-equality.
  uint64_t raw(int64_t i) const {
    uint64_t r = 0;
    std::memcpy(&r, bytes.data() + i * dtypeSize(type.dtype), static_cast<size_t>(dtypeSize(type.dtype)));
    return r;
  }
  TensorRef ref() { return TensorRef{bytes.data(), &type}; }
};

// Runs `code` with attributes on `ins`, one result per type of `outTypes`.
std::vector<Tensor> runOpWith(OpCode code, std::vector<Tensor*> ins, std::vector<TensorType> outTypes,
                              std::vector<std::pair<std::string, Attr>> attrs = {}) {
  Op op;
  op.code = code;
  for (auto& [name, value] : attrs) op.attrs.set(name, value);
  std::vector<TensorType> inTypes;
  std::vector<TensorRef> inRefs;
  for (Tensor* t : ins) {
    inTypes.push_back(t->type);
    inRefs.push_back(t->ref());
  }
  PreparedKernel k = prepareKernel(op, inTypes, outTypes);
  std::vector<Tensor> outs;
  std::vector<TensorRef> outRefs;
  for (const TensorType& t : outTypes) outs.emplace_back(t.dtype, t.shape);
  for (Tensor& t : outs) outRefs.push_back(t.ref());
  KernelContext ctx;
  k(inRefs.data(), outRefs.data(), ctx);
  return outs;
}

Tensor runOp(OpCode code, std::vector<Tensor*> ins, TensorType outType) {
  return runOpWith(code, std::move(ins), {std::move(outType)})[0];
}

// all()'s results at 1 thread, after checking that 2 threads give the same bytes.
template <class All> std::vector<Tensor> sameBytesAtOneAndTwoThreads(All all) {
  const std::vector<Tensor> one = all();
  simd::setKernelThreads(2);
  const std::vector<Tensor> two = all();
  simd::setKernelThreads(1);
  EXPECT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size() && i < two.size(); ++i) EXPECT_EQ(one[i].bytes, two[i].bytes) << "result " << i;
  return one;
}

// An attribute list of integers.
Attr intList(std::vector<int64_t> v) {
  std::vector<Attr> items;
  for (int64_t x : v) items.push_back(Attr::integer(x));
  return Attr::list(std::move(items));
}

// ---- formats and ulps -------------------------------------------------------------

struct Format {
  int digits;     // significand bits incl. the hidden one
  int minExp;     // exponent of the smallest normal
  LD max;
};
Format formatOf(DType dt) {
  if (dt == DType::F32) return {24, -126, std::numeric_limits<float>::max()};
  if (dt == DType::F64) return {53, -1022, std::numeric_limits<double>::max()};
  return {11, -14, 65504};
}

// Rounds a long double to the dtype (nearest even), as the kernel's result type.
LD roundTo(DType dt, LD v) {
  if (dt == DType::F32) return static_cast<float>(v);
  if (dt == DType::F64) return static_cast<double>(v);
  return halfToFloat(floatToHalf(static_cast<float>(v)));  // via f32: fine for references far from ties
}

LD ulpOf(DType dt, LD ref) {
  const Format f = formatOf(dt);
  int e = f.minExp;
  if (ref != 0 && std::isfinite(ref)) e = std::max(f.minExp, std::ilogb(ref));
  return std::ldexp(LD(1), e - f.digits + 1);
}

// Distance of `got` from the exact `ref` in ulps of the result type; infinite
// (a failure) for a wrong NaN, infinity or zero sign.
LD ulpError(DType dt, LD got, LD ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  const LD rounded = roundTo(dt, ref);
  if (std::isinf(rounded) || std::isinf(got)) {
    if (got == rounded) return 0;
    // Next to the overflow threshold a 1-ulp result may round the other way.
    const LD maxv = formatOf(dt).max;
    if (std::isinf(got) && std::fabs(rounded) == maxv && std::signbit(got) == std::signbit(ref)) return 1;
    if (std::isinf(rounded) && std::fabs(got) == maxv && std::signbit(got) == std::signbit(ref)) return 1;
    return INFINITY;
  }
  if (ref == 0 && got == 0 && std::signbit(ref) != std::signbit(got)) return INFINITY;
  return std::fabs(got - ref) / ulpOf(dt, ref);
}

// ---- the hard values ----------------------------------------------------------------

std::vector<LD> hardValues(DType dt) {
  const LD inf = INFINITY, nan = NAN;
  std::vector<LD> v = {0.0L, -0.0L, 1, -1, 0.5, 2, 49, 1e-5L, -1e-5L, 0.3L, -0.3L, 0.8999L, 0.9L, -0.9L, 1.7L, -2.5L,
                       5, -5, 9, -9.5L, 20, -20, 100, -100, inf, -inf, nan};
  if (dt == DType::F32) {
    for (LD x : {LD(1e-39), LD(-1e-39), LD(0x1p-149), LD(-0x1p-149), LD(0x1p-126), LD(0x1.fffffcp-127), LD(88.72f),
                 LD(88.73f), LD(-87.3f), LD(-103.9f), LD(-104.f), LD(-150), LD(3.4e38f), LD(-3.4e38f), LD(1e30f)})
      v.push_back(x);
  } else if (dt == DType::F64) {
    for (LD x : {LD(1e-310), LD(-1e-310), LD(0x1p-1074), LD(0x1p-1022), LD(709.78), LD(709.79), LD(-708.4), LD(-720),
                 LD(-745.1), LD(-746), LD(1.7e308), LD(-1.7e308), LD(1e-39), LD(88.73), LD(-800)})
      v.push_back(x);
  } else {
    for (LD x : {LD(0x1p-24), LD(-0x1p-24), LD(0x1p-14), LD(6e-5), LD(11.08), LD(11.1), LD(-17.3), LD(65504), LD(-65504)})
      v.push_back(x);
  }
  return v;
}

// ---- unary ops -------------------------------------------------------------------

struct UnaryCase {
  OpCode code;
  const char* name;
  LD (*ref)(LD);
  double ulps;       // bound in ulps of the result type (f16: of the half result)
  bool relToInput;   // the bound is also scaled by |x| (formulas with cancellation)
};

LD geluRef(LD x) { return 0.5L * x * (1 + std::tanh(0.7978845608028654L * (x + 0.044715L * x * x * x))); }
LD softplusRef(LD x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }
LD sigmoidRef(LD x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }
// x Phi(x) through erfc, relative to its value for every x (x/2 (1 + erf(x/sqrt 2))
// cancels for x < 0); NaN at -inf, as that formula gives.
LD geluErfRef(LD x) { return x * std::erfc(-x / std::sqrt(2.0L)) / 2; }

const UnaryCase kUnary[] = {
    {OpCode::Exp, "exp", [](LD x) { return std::exp(x); }, 1.5, false},
    {OpCode::Log, "log", [](LD x) { return std::log(x); }, 1.0, false},
    {OpCode::Log2, "log2", [](LD x) { return std::log2(x); }, 1.5, false},
    {OpCode::Sqrt, "sqrt", [](LD x) { return std::sqrt(x); }, 0.5, false},
    {OpCode::Rsqrt, "rsqrt", [](LD x) { return 1 / std::sqrt(x); }, 1.5, false},
    {OpCode::Reciprocal, "reciprocal", [](LD x) { return 1 / x; }, 0.5, false},
    {OpCode::Square, "square", [](LD x) { return x * x; }, 0.5, false},
    {OpCode::Abs, "abs", [](LD x) { return std::fabs(x); }, 0, false},
    {OpCode::Neg, "neg", [](LD x) { return -x; }, 0, false},
    {OpCode::Relu, "relu", [](LD x) { return x < 0 ? 0 : x; }, 0, false},
    {OpCode::Tanh, "tanh", [](LD x) { return std::tanh(x); }, 1.5, false},
    {OpCode::Sigmoid, "sigmoid", sigmoidRef, 2, false},
    {OpCode::Sin, "sin", [](LD x) { return std::sin(x); }, 1.5, false},
    {OpCode::Cos, "cos", [](LD x) { return std::cos(x); }, 1.5, false},
    {OpCode::Swish, "swish", [](LD x) { return x * sigmoidRef(x); }, 3, false},
    {OpCode::Softplus, "softplus", softplusRef, 3, false},
    {OpCode::Gelu, "gelu", geluRef, 4, true},
    {OpCode::GeluErf, "gelu_erf", geluErfRef, 4, false},  // f64: the C library's erfc (f32: see EveryInstructionSet)
    {OpCode::Erf, "erf", [](LD x) { return std::erf(x); }, 1.5, false},
};

// The bound for one value: an f16 result is an f32 result (a few f32 ulps at
// most) rounded once more, so within 1 ulp of the half format.
double boundFor(const UnaryCase& c, DType dt) { return dt == DType::F16 ? 1.0 : c.ulps; }

void checkUnary(const UnaryCase& c, DType dt) {
  const std::vector<LD> hard = hardValues(dt);
  const int64_t H = static_cast<int64_t>(hard.size());
  // The value alone: the reference for bit-equality, and checked against the math.
  std::vector<uint64_t> alone(hard.size());
  for (int64_t h = 0; h < H; ++h) {
    Tensor x(dt, {1});
    x.set(0, hard[h]);
    const LD xv = x.get(0);  // the input as stored (rounded to the dtype)
    const Tensor y = runOp(c.code, {&x}, {dt, {1}});
    alone[h] = y.raw(0);
    const LD ref = c.ref(xv);
    LD err = ulpError(dt, y.get(0), ref);
    if (c.relToInput && std::isfinite(err) && std::isfinite(xv))
      err = std::fabs(y.get(0) - ref) / (ulpOf(dt, ref) + 2 * ulpOf(dt, 1) * std::fabs(xv));
    EXPECT_LE(err, boundFor(c, dt)) << c.name << " " << dtypeName(dt) << "(" << static_cast<double>(xv)
                                    << ") = " << static_cast<double>(y.get(0)) << ", exact "
                                    << static_cast<double>(ref);
  }
  // Every value at every position of every length 1..67 (cyclic shifts).
  for (int64_t len = 1; len <= 67; ++len) {
    for (int64_t shift = 0; shift < H; ++shift) {
      Tensor x(dt, {len});
      for (int64_t i = 0; i < len; ++i) x.set(i, hard[(i + shift) % H]);
      const Tensor y = runOp(c.code, {&x}, {dt, {len}});
      for (int64_t i = 0; i < len; ++i) {
        const int64_t h = (i + shift) % H;
        if (y.raw(i) != alone[h]) {
          ADD_FAILURE() << c.name << " " << dtypeName(dt) << "(" << static_cast<double>(x.get(i)) << ") at " << i
                        << " of " << len << " gives " << static_cast<double>(y.get(i)) << ", alone "
                        << static_cast<double>(runOp(c.code, {&x}, {dt, {len}}).get(i));
          return;
        }
      }
    }
  }
}

TEST(Numerics, UnaryF32) {
  for (const UnaryCase& c : kUnary) checkUnary(c, DType::F32);
}
TEST(Numerics, UnaryF64) {
  for (const UnaryCase& c : kUnary) checkUnary(c, DType::F64);
}
TEST(Numerics, UnaryF16) {
  for (const UnaryCase& c : kUnary) checkUnary(c, DType::F16);
}

// The hard values, at every position of a 67-element tensor.
// gelu = x s, s = sigmoid(2u), relative to its own value for every input, negative
// ones included, within 4 + 6|u| ulps: the exponential's conditioning on u rounded in
// the working precision (e^-2|u| moves 2|u| times u's relative error). x/2 (1 +
// tanh(u)) loses the relative precision in 1 + tanh(u): hundreds of ulps from x = -2,
// and 0 for gelu's tiny negative values below x = -5. g * gelu'(x) likewise, relative
// to the magnitude of its two terms, s and 2x u' s (1 - s). The inputs reach x = -12,
// where e^-2|u| leaves the normal range (f32 from about x = -10.1) and underflows.
TEST(Numerics, GeluAndItsGradientAreAccurateForNegativeInputs) {
  const LD k = 0.7978845608028654L, a = 0.044715L;
  for (DType dt : {DType::F32, DType::F64}) {
    const int64_t n = 4201;
    Tensor x(dt, {n}), g(dt, {n});
    for (int64_t i = 0; i < n; ++i) x.set(i, -12.0L + 14.0L * i / (n - 1)), g.set(i, 1.0L);
    const Tensor y = runOp(OpCode::Gelu, {&x}, {dt, {n}});
    const Tensor dy = runOp(OpCode::GeluGrad, {&x, &g}, {dt, {n}});
    for (int64_t i = 0; i < n; ++i) {
      const LD xv = x.get(i), u = k * (xv + a * xv * xv * xv);
      const LD s = 1 / (1 + std::exp(-2 * u));
      const LD second = 2 * xv * k * (1 + 3 * a * xv * xv) * s * (1 - s);
      const LD bound = 4 + 6 * std::fabs(u);
      EXPECT_LE(ulpError(dt, y.get(i), xv * s), bound) << dtypeName(dt) << " gelu(" << static_cast<double>(xv) << ")";
      EXPECT_LE(std::fabs(dy.get(i) - (s + second)), bound * ulpOf(dt, std::fabs(s) + std::fabs(second)))
          << dtypeName(dt) << " gelu_grad(" << static_cast<double>(xv) << ")";
    }
  }
}

// gelu_erf = x Phi(x) relative to its own value for every input, negative ones included,
// through to where it underflows (f32 x = -14.36, f64 -38.74) and past it; x/2 (1 +
// erf(x/sqrt 2)) as written loses the relative precision in 1 + erf from about x = -2
// and is 0 from x = -5.54 (f32) and -8.37 (f64). f32: within 0.52 ulp (bench/math_ulp: at
// most 0.503); f64 (the C library's erfc) within 4, and within 24 from x = -37.5, where
// glibc's erfc, below 1e-307, rounds an intermediate into the subnormal range while x/2
// erfc is still normal. Subnormal results in units of the smallest subnormal.
TEST(Numerics, GeluErfIsAccurateForNegativeInputs) {
  for (DType dt : {DType::F32, DType::F64}) {
    const int64_t n = 9001;
    const LD lo = dt == DType::F32 ? -16.0L : -40.0L;
    Tensor x(dt, {n});
    for (int64_t i = 0; i < n; ++i) x.set(i, lo + (2 - lo) * i / (n - 1));
    const Tensor y = runOp(OpCode::GeluErf, {&x}, {dt, {n}});
    for (int64_t i = 0; i < n; ++i) {
      const LD xv = x.get(i);
      EXPECT_LE(ulpError(dt, y.get(i), geluErfRef(xv)), dt == DType::F32 ? 0.52 : xv < -37.5L ? 24.0 : 4.0)
          << dtypeName(dt) << " gelu_erf(" << static_cast<double>(xv) << ") = " << static_cast<double>(y.get(i));
    }
  }
}

// A float from its bit pattern, and back.
float fromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// erf's and gelu_erf's hard values on every instruction set's f32 table: exact results
// where there is one, a NaN input's own bits (also a signalling one), and the rounding
// at the edges of the forms (erf reaches 1 at 3.9192059; gelu_erf is -0 below
// -14.356069 and -2^-149 just above it; NaN at -inf, as x/2 (1 + erf(x/sqrt 2)) gives).
TEST(Numerics, ErfAndGeluErfHardValuesOnEveryInstructionSet) {
  const float inf = INFINITY, maxf = std::numeric_limits<float>::max(), tiny = 0x1p-149f;
  const float erfOne = 3.9192059f, phiZero = 14.356069f;
  const std::vector<std::pair<float, float>> erfCases = {
      {0.0f, 0.0f}, {-0.0f, -0.0f}, {inf, 1.0f}, {-inf, -1.0f}, {maxf, 1.0f}, {-maxf, -1.0f}, {tiny, tiny},
      {-tiny, -tiny}, {0x1p-140f, 0x1.20dd76p-140f}, {erfOne, 1.0f}, {std::nextafter(erfOne, 0.0f), 0x1.fffffep-1f},
      {-erfOne, -1.0f}, {10.0f, 1.0f}};
  const std::vector<std::pair<float, float>> geluCases = {
      {0.0f, 0.0f}, {-0.0f, -0.0f}, {inf, inf}, {maxf, maxf}, {-maxf, -0.0f}, {-100.0f, -0.0f}, {-phiZero, -0.0f},
      {std::nextafter(-phiZero, 0.0f), -tiny}, {2 * tiny, tiny}, {-2 * tiny, -tiny},
      {6.0f, 6.0f}, {1e30f, 1e30f}};
  const float nans[] = {NAN, -NAN, fromBits(0x7fc01234u), fromBits(0xff800001u), fromBits(0x7fbfffffu)};
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    SCOPED_TRACE(isa);
    for (auto [kind, cases] : {std::pair{simd::kErf, erfCases}, std::pair{simd::kGeluErf, geluCases}}) {
      for (auto [x, want] : cases) {
        float y;
        t->f32.unary[kind](&x, &y, 1);
        EXPECT_EQ(bitsOf(y), bitsOf(want)) << "kind " << kind << " (" << x << ") = " << y << ", want " << want;
      }
      for (float x : nans) {
        float y;
        t->f32.unary[kind](&x, &y, 1);
        EXPECT_EQ(bitsOf(y), bitsOf(x)) << "kind " << kind << " NaN " << std::hex << bitsOf(x);
      }
    }
    float y, x = -inf;
    t->f32.unary[simd::kGeluErf](&x, &y, 1);
    EXPECT_TRUE(std::isnan(y)) << "gelu_erf(-inf) = " << y;
  }
}

TEST(Numerics, ReportedExamples) {
  auto all = [](DType dt, OpCode code, LD v, LD expected, LD tol) {
    Tensor x(dt, {67});
    for (int64_t i = 0; i < 67; ++i) x.set(i, v);
    const Tensor y = runOp(code, {&x}, {dt, {67}});
    for (int64_t i = 0; i < 67; ++i)
      EXPECT_NEAR(static_cast<double>(y.get(i)), static_cast<double>(expected), static_cast<double>(tol))
          << "element " << i;
  };
  all(DType::F32, OpCode::Exp, -100, 27 * 0x1p-149L, 0);  // 3.72e-44 rounds to 27 * 2^-149
  all(DType::F32, OpCode::Log, 1e-39L, std::log(static_cast<LD>(1e-39f)), 4e-6L);
  all(DType::F32, OpCode::Sqrt, 49, 7, 0);
  all(DType::F64, OpCode::Exp, -720, std::exp(LD(-720)), 0x1p-1074L);
  all(DType::F64, OpCode::Log, 1e-310L, std::log(static_cast<LD>(1e-310)), 1e-13L);
  all(DType::F32, OpCode::Rsqrt, 1e-39L, 1 / std::sqrt(static_cast<LD>(1e-39f)), 3.2e19L * 1.2e-7L);
}

// Each instruction set's table (not only the one this CPU picks) meets the
// bounds, and its tail equals its body.
TEST(Numerics, EveryInstructionSet) {
  struct Fn {
    int kind;
    LD (*ref)(LD);
    double ulps;
    double ulpsF64;
  };
  // erf, gelu_erf and softplus (f32) are nearly correctly rounded (bench/math_ulp:
  // 0.503 ulp at most); f64 erf and gelu_erf are the C library's erf and erfc.
  const Fn fns[] = {{simd::kExp, [](LD x) { return std::exp(x); }, 1.5, 1.5},
                    {simd::kLog, [](LD x) { return std::log(x); }, 1.0, 1.0},
                    {simd::kTanh, [](LD x) { return std::tanh(x); }, 1.5, 1.5},
                    {simd::kSigmoid, sigmoidRef, 2, 2},
                    {simd::kSqrt, [](LD x) { return std::sqrt(x); }, 0.5, 0.5},
                    {simd::kSin, [](LD x) { return std::sin(x); }, 1.0, 1.0},
                    {simd::kCos, [](LD x) { return std::cos(x); }, 1.0, 1.0},
                    {simd::kErf, [](LD x) { return std::erf(x); }, 0.52, 1.5},
                    {simd::kGeluErf, geluErfRef, 0.52, 4},
                    {simd::kSoftplus, softplusRef, 0.51, 2}};
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    for (const Fn& f : fns) {
      std::vector<float> xf;
      std::vector<double> xd;
      for (LD v : hardValues(DType::F32)) xf.push_back(static_cast<float>(v));
      for (LD v : hardValues(DType::F64)) xd.push_back(static_cast<double>(v));
      for (int i = -3000; i <= 3000; ++i) {  // a dense sweep of the polynomial ranges
        xf.push_back(static_cast<float>(i / 97.0));
        xd.push_back(i / 97.0 + i * 1e-9);
      }
      // sin and cos: the floats nearest multiples of pi/2 (where the reduced argument
      // is smallest) up to the vector path's limit of 2^19 and past it, and either
      // side of that limit.
      for (long k = 1; k < 700000; k = k < 4000 ? k + 1 : k * 21 / 20) {
        const float m = static_cast<float>(k * 1.5707963267948966192L);
        for (float v : {m, std::nextafter(m, 0.0f), std::nextafter(m, 1e30f)}) {
          xf.push_back(v);
          xf.push_back(-v);
        }
      }
      for (float v : {0x1p19f, std::nextafter(0x1p19f, 0.0f), std::nextafter(0x1p19f, 1e30f), 1e6f, 3.3e7f, 1e30f})
        xf.push_back(v), xf.push_back(-v);
      // erf and gelu_erf: either side of their splits (erf rounds to ±1 from 3.9192059;
      // gelu_erf's Phi is 1 from 5.542594, takes its tail form below -3.5 and is 0 below
      // -14.356069), and gelu_erf's results near the smallest subnormal.
      for (float m : {3.9192059f, 5.542594f, 3.5f, 14.356069f, 14.356068f, 14.3f, 14.0f, 13.0f})
        for (float v : {m, std::nextafter(m, 0.0f), std::nextafter(m, 100.0f)}) xf.push_back(v), xf.push_back(-v);
      std::vector<float> yf(xf.size()), one(1);
      std::vector<double> yd(xd.size()), oned(1);
      t->f32.unary[f.kind](xf.data(), yf.data(), static_cast<int64_t>(xf.size()));
      t->f64.unary[f.kind](xd.data(), yd.data(), static_cast<int64_t>(xd.size()));
      for (size_t i = 0; i < xf.size(); ++i) {
        EXPECT_LE(ulpError(DType::F32, yf[i], f.ref(xf[i])), f.ulps) << isa << " kind " << f.kind << " f32 " << xf[i];
        t->f32.unary[f.kind](&xf[i], one.data(), 1);
        EXPECT_EQ(std::memcmp(&one[0], &yf[i], 4), 0) << isa << " tail differs at " << xf[i];
      }
      for (size_t i = 0; i < xd.size(); ++i) {
        EXPECT_LE(ulpError(DType::F64, yd[i], f.ref(xd[i])), f.ulpsF64) << isa << " kind " << f.kind << " f64 " << xd[i];
        t->f64.unary[f.kind](&xd[i], oned.data(), 1);
        EXPECT_EQ(std::memcmp(&oned[0], &yd[i], 8), 0) << isa << " tail differs at " << xd[i];
      }
    }
  }
}

// log (f32) and tanh take a shorter path for a vector whose lanes are all
// ordinary (log: positive normal; tanh: |x| below the split) and a general one
// otherwise; a lane must get the same bits on both. Every input is computed in
// vectors of ordinary values only, and again with a forcing value every fourth
// element (so every vector of 4, 8 or 16 lanes holds one).
TEST(Numerics, ShortAndGeneralPathsAgree) {
  std::vector<float> logx, tanhx;
  for (uint32_t b = bitsOf(0.98f); b < bitsOf(1.03f); ++b) logx.push_back(fromBits(b));  // around 1, densely
  for (uint32_t b = 0x00800000; b < 0x7f800000; b += 4099) logx.push_back(fromBits(b));  // all normals
  for (uint32_t b = 0; b < bitsOf(1.0f); b += 1021) {
    tanhx.push_back(fromBits(b));
    tanhx.push_back(-fromBits(b));
  }
  std::vector<float> geluErfx;  // the polynomial's lanes: [-3.5, 6]
  for (float v = -3.5f; v <= 6.0f; v = std::nextafter(v, 7.0f) + 1e-5f) geluErfx.push_back(v);
  std::vector<double> tanhd;
  for (float v : tanhx)
    if (std::fabs(v) < 0.9f) tanhd.push_back(v * (1 + 1e-9));
  // Runs f on xs as they are (padded to whole vectors with `pad`, ordinary) and
  // with `force` before every third input; the two must agree bit for bit.
  auto check = [](auto f, const auto& xs, auto pad, auto force, const char* what) {
    using S = std::remove_cvref_t<decltype(xs[0])>;
    std::vector<S> plain(xs), mixed;
    while (plain.size() % 16) plain.push_back(pad);
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i % 3 == 0) mixed.push_back(force);
      mixed.push_back(xs[i]);
    }
    std::vector<S> yp(plain.size()), ym(mixed.size());
    f(plain.data(), yp.data(), static_cast<int64_t>(plain.size()));
    f(mixed.data(), ym.data(), static_cast<int64_t>(mixed.size()));
    for (size_t i = 0; i < xs.size(); ++i) {
      const S got = ym[i + i / 3 + 1];
      if (std::memcmp(&got, &yp[i], sizeof(S)) != 0) {
        ADD_FAILURE() << what << "(" << static_cast<double>(xs[i]) << "): " << static_cast<double>(yp[i])
                      << " alone, " << static_cast<double>(got) << " beside " << static_cast<double>(force);
        return;
      }
    }
  };
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    SCOPED_TRACE(isa);
    for (float force : {0.0f, -1.0f, 1e-40f, INFINITY, NAN}) check(t->f32.unary[simd::kLog], logx, 1.0f, force, "log");
    for (float force : {1.0f, 5.0f, NAN}) check(t->f32.unary[simd::kTanh], tanhx, 0.5f, force, "tanh");
    for (double force : {0.9, 5.0}) check(t->f64.unary[simd::kTanh], tanhd, 0.5, force, "tanh f64");
    // gelu_erf: a half vector with a lane below -3.5 computes the tail form too.
    for (float force : {-3.6f, -20.0f, -INFINITY}) check(t->f32.unary[simd::kGeluErf], geluErfx, 0.5f, force, "gelu_erf");
  }
}

std::string nameOf(OpCode code) {
  Op op;
  op.code = code;
  return std::string(op.info().name);
}

// ---- binary ops -----------------------------------------------------------------------

// Same-shape, tensor-scalar and scalar-tensor forms agree bit for bit with the
// scalar IEEE operation (f16: in f32, rounded once), for every position.
TEST(Numerics, BinaryEveryPositionAndForm) {
  const OpCode codes[] = {OpCode::Add, OpCode::Sub, OpCode::Mul, OpCode::Div, OpCode::Maximum, OpCode::Minimum,
                          OpCode::Pow};
  for (DType dt : {DType::F32, DType::F64, DType::F16}) {
    const std::vector<LD> hard = hardValues(dt);
    const int64_t H = static_cast<int64_t>(hard.size());
    for (OpCode code : codes) {
      auto scalarOp = [&](LD a, LD b) -> LD {
        auto apply = [&](auto x, auto y) -> LD {
          using C = decltype(x);
          switch (code) {
            case OpCode::Add: return x + y;
            case OpCode::Sub: return x - y;
            case OpCode::Mul: return x * y;
            case OpCode::Div: return x / y;
            case OpCode::Maximum: return (x != x || x > y) ? x : y;
            case OpCode::Minimum: return (x != x || x < y) ? x : y;
            default: return std::pow(C(x), C(y));
          }
        };
        if (dt == DType::F64) return apply(static_cast<double>(a), static_cast<double>(b));
        const LD r = apply(static_cast<float>(a), static_cast<float>(b));
        return roundTo(dt, r);
      };
      for (int64_t len : {1, 7, 8, 15, 16, 17, 31, 33, 67}) {
        for (int64_t shift = 0; shift < H; shift += 3) {
          Tensor a(dt, {len}), b(dt, {len}), s(dt, {});
          for (int64_t i = 0; i < len; ++i) {
            a.set(i, hard[(i + shift) % H]);
            b.set(i, hard[(i * 7 + shift + 1) % H]);
          }
          s.set(0, hard[shift % H]);
          const Tensor vv = runOp(code, {&a, &b}, {dt, {len}});
          const Tensor vs = runOp(code, {&a, &s}, {dt, {len}});
          const Tensor sv = runOp(code, {&s, &b}, {dt, {len}});
          for (int64_t i = 0; i < len; ++i) {
            auto same = [](LD got, LD want) {
              return (std::isnan(got) && std::isnan(want)) ||
                     (got == want && std::signbit(got) == std::signbit(want));
            };
            const std::string what = nameOf(code) + " " + std::string(dtypeName(dt)) + " at " +
                                     std::to_string(i) + " of " + std::to_string(len);
            EXPECT_TRUE(same(vv.get(i), scalarOp(a.get(i), b.get(i)))) << what;
            EXPECT_TRUE(same(vs.get(i), scalarOp(a.get(i), s.get(0)))) << what;
            EXPECT_TRUE(same(sv.get(i), scalarOp(s.get(0), b.get(i)))) << what;
          }
        }
      }
    }
  }
}

// ---- reductions and softmax ----------------------------------------------------------------

// The documented summation orders: a contiguous reduced block uses 16
// interleaved partial sums combined pairwise, then the rest in order; a leading
// axis is accumulated row by row.
float sumInOrder(const std::vector<float>& x, int64_t begin, int64_t n, int64_t stride) {
  float p[16];
  for (float& v : p) v = -0.0f;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j) p[j] += x[begin + (i + j) * stride];
  for (int w = 8; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) p[j] += p[j + w];
  float s = p[0];
  for (; i < n; ++i) s += x[begin + i * stride];
  return s;
}

TEST(Numerics, SumOrdersAreDocumentedAndDeterministic) {
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 256}, {3, 67}, {67, 3}, {1, 100}, {100, 1}, {17, 33}}) {
    Tensor x(DType::F32, {rows, cols});
    std::vector<float> v(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows * cols; ++i) {
      v[i] = static_cast<float>(std::sin(i * 0.37) * std::pow(10.0, (i % 7) - 3));
      x.set(i, v[i]);
    }
    for (int64_t axis : {0, 1}) {
      const int64_t outN = axis == 0 ? cols : rows;
      const Tensor y = runOpWith(OpCode::Sum, {&x}, {{DType::F32, {outN}}}, {{"axis", Attr::integer(axis)}})[0];
      for (int64_t o = 0; o < outN; ++o) {
        float want;
        if (axis == 1 || cols == 1) {  // the reduced elements are contiguous
          want = axis == 1 ? sumInOrder(v, o * cols, cols, 1) : sumInOrder(v, 0, rows, 1);
        } else {
          want = v[o];
          for (int64_t r = 1; r < rows; ++r) want += v[r * cols + o];
        }
        EXPECT_EQ(static_cast<float>(y.get(o)), want) << rows << "x" << cols << " axis " << axis << " out " << o;
      }
    }
  }
}

// The fused row kernels of the normalisations give the bits of their operations done
// one loop at a time, as the documentation of the table states, on every ISA.
TEST(Numerics, NormalisationRowKernelsEqualTheirSeparateOperations) {
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    for (int64_t n : {1, 2, 15, 16, 17, 67, 128, 1000}) {
      std::vector<float> x(n), g(n), gamma(n), d(n), sq(n), xhat(n), dxhat(n), prod(n);
      for (int64_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(std::sin(i * 0.37) * std::pow(10.0, (i % 5) - 2) + 3.0);
        g[i] = static_cast<float>(std::cos(i * 0.91) * 0.7);
        gamma[i] = static_cast<float>(1.0 + 0.01 * (i % 13));
      }
      const float count = static_cast<float>(n), eps = 1e-5f;
      const float mean = sumInOrder(x, 0, n, 1) / count;
      for (int64_t i = 0; i < n; ++i) d[i] = x[i] - mean, sq[i] = d[i] * d[i];
      const float rstd = 1.0f / std::sqrt(sumInOrder(sq, 0, n, 1) / count + eps);
      for (int64_t i = 0; i < n; ++i) xhat[i] = d[i] * rstd;
      std::vector<float> got(n);
      const float gotRstd = t->f32.normaliseRow(x.data(), n, eps, got.data());
      EXPECT_EQ(gotRstd, rstd) << isa << " n " << n;
      EXPECT_EQ(std::memcmp(got.data(), xhat.data(), n * sizeof(float)), 0) << isa << " n " << n;
      std::vector<float> y(n), beta(n), gotY = x;  // y written over x
      for (int64_t i = 0; i < n; ++i) {
        beta[i] = static_cast<float>(0.1 * (i % 7) - 0.3);
        const float scaled = xhat[i] * gamma[i];
        y[i] = scaled + beta[i];
      }
      t->f32.layerNormRow(gotY.data(), gamma.data(), beta.data(), n, eps, gotY.data());
      for (int64_t i = 0; i < n; ++i) EXPECT_EQ(gotY[i], y[i]) << isa << " n " << n << " at " << i;
      for (int64_t i = 0; i < n; ++i) dxhat[i] = g[i] * gamma[i];
      const float m1 = sumInOrder(dxhat, 0, n, 1) / count;
      for (int64_t i = 0; i < n; ++i) prod[i] = dxhat[i] * xhat[i];
      const float m2 = sumInOrder(prod, 0, n, 1) / count;
      std::vector<float> dx(n), dgamma(n), dbeta(n);
      for (int64_t i = 0; i < n; ++i) {
        const float centred = dxhat[i] - m1, scaled = xhat[i] * m2;
        dx[i] = (centred - scaled) * rstd;
        dgamma[i] = 0.25f * i + g[i] * xhat[i];  // added to what the rows before left
        dbeta[i] = -0.5f * i + g[i];
      }
      // dx written over g (the kernel may be given one buffer for both).
      std::vector<float> gotXhat(n), gotDgamma(n), gotDbeta(n), gotDx = g;
      for (int64_t i = 0; i < n; ++i) gotDgamma[i] = 0.25f * i, gotDbeta[i] = -0.5f * i;
      t->f32.layerNormGradRow(x.data(), gotDx.data(), gamma.data(), n, eps, gotXhat.data(), gotDgamma.data(),
                              gotDbeta.data(), gotDx.data());
      EXPECT_EQ(std::memcmp(gotXhat.data(), xhat.data(), n * sizeof(float)), 0) << isa << " n " << n;
      for (int64_t i = 0; i < n; ++i) {
        EXPECT_EQ(gotDx[i], dx[i]) << isa << " n " << n << " at " << i;
        EXPECT_EQ(gotDgamma[i], dgamma[i]) << isa << " n " << n << " at " << i;
        EXPECT_EQ(gotDbeta[i], dbeta[i]) << isa << " n " << n << " at " << i;
      }
    }
  }
}

// softmax's fused middle pass gives the bits of its three loops, for f32 and f64,
// on every ISA, over lengths with and without a partial vector.
template <class S> void checkShiftExpSum(const simd::TypedTable<S>& f, const char* isa) {
  for (int64_t n : {1, 3, 8, 15, 16, 17, 64, 67, 1000}) {
    std::vector<S> x(n), shifted(n), e(n), gotShifted(n), gotE(n), gotE2(n);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<S>(std::sin(i * 0.61) * 30.0 - 5.0);
    const S shift = static_cast<S>(12.25);
    f.binary[simd::kSub][simd::kVecScalar](x.data(), &shift, shifted.data(), n);
    f.unary[simd::kExp](shifted.data(), e.data(), n);
    const S sum = f.sum(e.data(), n);
    EXPECT_EQ(f.shiftExpSum(x.data(), shift, gotShifted.data(), gotE.data(), n), sum) << isa << " n " << n;
    EXPECT_EQ(f.shiftExpSum(x.data(), shift, nullptr, gotE2.data(), n), sum) << isa << " n " << n;
    EXPECT_EQ(std::memcmp(gotShifted.data(), shifted.data(), n * sizeof(S)), 0) << isa << " n " << n;
    EXPECT_EQ(std::memcmp(gotE.data(), e.data(), n * sizeof(S)), 0) << isa << " n " << n;
    EXPECT_EQ(std::memcmp(gotE2.data(), e.data(), n * sizeof(S)), 0) << isa << " n " << n;
  }
}

// softmax_grad's row kernel gives the bits of its loops (g * y, their sum, y * s, the
// difference), dx written over g as well as to a buffer of its own.
template <class S> void checkSoftmaxGradRow(const simd::TypedTable<S>& f, const char* isa) {
  for (int64_t n : {1, 3, 15, 16, 17, 64, 67, 1000}) {
    std::vector<S> y(n), g(n), gy(n), t(n), dx(n), got(n);
    for (int64_t i = 0; i < n; ++i) {
      y[i] = static_cast<S>(0.5 + 0.4 * std::sin(i * 0.73));
      g[i] = static_cast<S>(std::cos(i * 1.37) * 3.0 - 0.25);
    }
    f.binary[simd::kMul][simd::kVecVec](g.data(), y.data(), gy.data(), n);
    const S sum = f.sum(gy.data(), n);
    f.binary[simd::kMul][simd::kVecScalar](y.data(), &sum, t.data(), n);
    f.binary[simd::kSub][simd::kVecVec](gy.data(), t.data(), dx.data(), n);
    f.softmaxGradRow(y.data(), g.data(), n, got.data());
    EXPECT_EQ(std::memcmp(got.data(), dx.data(), n * sizeof(S)), 0) << isa << " n " << n;
    std::vector<S> inPlace = g;
    f.softmaxGradRow(y.data(), inPlace.data(), n, inPlace.data());
    EXPECT_EQ(std::memcmp(inPlace.data(), dx.data(), n * sizeof(S)), 0) << isa << " n " << n << " over g";
  }
}

TEST(Numerics, SoftmaxRowPassEqualsItsSeparateLoops) {
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    checkShiftExpSum(t->f32, isa);
    checkShiftExpSum(t->f64, isa);
    checkSoftmaxGradRow(t->f32, isa);
    checkSoftmaxGradRow(t->f64, isa);
  }
}

// c = +0, then c = a[i][p] * b[p][j] + c for p = 0, 1, ..: one rounding per step where
// the ISA has FMA, two (product, then sum) on SSE2.
template <class S>
std::vector<S> depthOrderProduct(const std::vector<S>& a, bool transA, const std::vector<S>& b, int64_t m, int64_t n,
                                 int64_t k, bool fused) {
  std::vector<S> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      S acc = 0;
      for (int64_t p = 0; p < k; ++p) {
        const S x = a[static_cast<size_t>(transA ? p * m + i : i * k + p)], y = b[static_cast<size_t>(p * n + j)];
        if (fused) {
          acc = std::fma(x, y, acc);
        } else {
          volatile S product = x * y;  // rounded on its own, as the ISA without FMA does
          acc = product + acc;
        }
      }
      c[static_cast<size_t>(i * n + j)] = acc;
    }
  return c;
}

template <class S> void checkSmallGemm(const simd::TypedTable<S>& f, const char* isa) {
  const bool fused = std::string(isa) != "sse2";
  uint64_t seed = 99;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<S>(static_cast<int64_t>(seed >> 33) % 20001 - 10000) / S(997);
  };
  // Rows around every ISA's tile (4, 8), widths of one, two and three vectors of
  // the widest ISA, depths from none to past a cache line of a.
  for (int64_t m : {1, 3, 4, 7, 8, 9, 13, 16, 17})
    for (int64_t n : {16, 32, 48})
      for (int64_t k : {0, 1, 5, 32, 67})
        for (bool transA : {false, true}) {
          std::vector<S> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
          for (S& v : a) v = next();
          for (S& v : b) v = next();
          const std::vector<S> want = depthOrderProduct(a, transA, b, m, n, k, fused);
          std::vector<S> got(static_cast<size_t>(m * n), S(7));
          f.smallGemm(a.data(), transA, b.data(), got.data(), m, n, k);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(S)), 0)
              << isa << " " << m << "x" << n << "x" << k << (transA ? " a transposed" : "");
        }
}

// The table's small GEMM sums each element over the depth in order (simd_kernels.h),
// whatever its row, column or the shape, with a stored plain or transposed (f32 only:
// f64 products go to OpenBLAS).
TEST(Numerics, SmallGemmSumsEachElementInDepthOrder) {
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    checkSmallGemm(t->f32, isa);
    EXPECT_EQ(t->f64.smallGemm, nullptr) << isa;
  }
}

// The direct convolution's row kernels on every ISA: convRows gives each element
// smallGemm's depth-order chain from rows read through pointers, writing exactly n
// columns of each c row (the columns past them keep their bytes); convGradRows adds
// each (depth row, channel) pair's products to its sum in position order, channels
// in whole vectors up to m (the ones past m keep their bytes), never reading a depth
// row's columns from n on (they hold infinities here).
TEST(Numerics, ConvRowKernelsSumInTheirDocumentedOrderOnEveryIsa) {
  uint64_t seed = 7;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<float>(static_cast<int64_t>(seed >> 33) % 20001 - 10000) / 997.0f;
  };
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    EXPECT_EQ(t->f64.convRows, nullptr) << isa;
    EXPECT_EQ(t->f64.convGradRows, nullptr) << isa;
    const bool fused = std::string(isa) != "sse2";
    auto step = [&](float acc, float x, float y) {
      if (fused) return std::fma(x, y, acc);
      volatile float product = x * y;  // rounded on its own, as the ISA without FMA does
      return product + acc;
    };
    for (int64_t m : {1, 3, 4, 8, 9, 16, 17, 32})
      for (int64_t n : {1, 13, 16, 28, 32, 40})
        for (int64_t k : {1, 2, 5, 9, 72}) {
          const int64_t stride = 64, offset = 3;  // each depth row's own run in `pool`
          std::vector<float> pool(static_cast<size_t>(k * stride + 80)), a(static_cast<size_t>(m * k));
          for (float& v : pool) v = next();
          for (float& v : a) v = next();
          std::vector<const float*> rows(static_cast<size_t>(k));
          for (int64_t p = 0; p < k; ++p) rows[static_cast<size_t>(p)] = pool.data() + ((p * 5) % k) * stride;
          // 1 to 3 output rows, 2 columns apart in the depth rows.
          for (int64_t outRows : {1, 2, 3}) {
            const int64_t ldc = outRows * n + 5;
            std::vector<float> got(static_cast<size_t>(m * ldc), 7.0f);
            t->f32.convRows(a.data(), rows.data(), offset, 2, outRows, got.data(), ldc, m, n, k);
            for (int64_t i = 0; i < m; ++i)
              for (int64_t j = 0; j < ldc; ++j) {
                float want = 7.0f;
                if (j < outRows * n) {
                  want = 0.0f;
                  for (int64_t p = 0; p < k; ++p)
                    want = step(want, a[static_cast<size_t>(i * k + p)],
                                rows[static_cast<size_t>(p)][offset + j / n * 2 + j % n]);
                }
                ASSERT_EQ(std::memcmp(&got[static_cast<size_t>(i * ldc + j)], &want, 4), 0)
                    << isa << " convRows " << m << "x" << n << "x" << k << ", " << outRows << " rows, at " << i << ","
                    << j;
              }
          }
          // convGradRows over 3 output rows, the gradient [position][ldg] with ldg past
          // the m channels; the depth rows' columns from n on hold infinities.
          const int64_t nrows = 3, mc = (m + 15) / 16 * 16, ldg = mc + 16;
          std::vector<float> gt(static_cast<size_t>(nrows * n * ldg));
          for (float& v : gt) v = next();
          std::vector<float> poolInf = pool;
          for (size_t e = 0; e < poolInf.size(); e += 3) poolInf[e] = std::numeric_limits<float>::infinity();
          std::vector<const float*> rowsInf(static_cast<size_t>(k));
          for (int64_t p = 0; p < k; ++p) {
            const int64_t at = rows[static_cast<size_t>(p)] - pool.data();
            rowsInf[static_cast<size_t>(p)] = poolInf.data() + at;
            for (int64_t r = 0; r < nrows; ++r)  // the columns read finite
              for (int64_t j = 0; j < n; ++j) poolInf[static_cast<size_t>(at + r * 2 + j)] = pool[static_cast<size_t>(at + r * 2 + j)];
          }
          const int64_t offsets[nrows] = {0, 2, 4};
          std::vector<float> acc(static_cast<size_t>(k * ldg));
          for (float& v : acc) v = next();
          std::vector<float> want = acc;
          for (int64_t p = 0; p < k; ++p)
            for (int64_t i = 0; i < mc; ++i)
              for (int64_t r = 0; r < nrows; ++r)
                for (int64_t j = 0; j < n; ++j) {
                  float& w = want[static_cast<size_t>(p * ldg + i)];
                  w = step(w, rows[static_cast<size_t>(p)][offsets[r] + j], gt[static_cast<size_t>((r * n + j) * ldg + i)]);
                }
          t->f32.convGradRows(rowsInf.data(), offsets, nrows, n, gt.data(), ldg, acc.data(), k, mc);
          ASSERT_EQ(std::memcmp(acc.data(), want.data(), want.size() * sizeof(float)), 0)
              << isa << " convGradRows " << m << "x" << n << "x" << k;
        }
  }
}

// The depthwise weight gradient's row kernel on every ISA: convGradLanes adds each
// depth row's products into 16 lanes, column j of every output row into lane j % 16,
// one chain per lane in (output row, column) order; the lanes past n of the last 16
// columns keep their bytes, and neither a depth row's columns from n on (infinities
// here) nor the gradient past its rows (a guard of infinities) reach a sum.
TEST(Numerics, ConvGradLanesSumEachLaneInItsDocumentedOrderOnEveryIsa) {
  uint64_t seed = 11;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<float>(static_cast<int64_t>(seed >> 33) % 20001 - 10000) / 997.0f;
  };
  const float inf = std::numeric_limits<float>::infinity();
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    EXPECT_EQ(t->f64.convGradLanes, nullptr) << isa;
    const bool fused = std::string(isa) != "sse2";
    auto step = [&](float acc, float x, float y) {
      if (fused) return std::fma(x, y, acc);
      volatile float product = x * y;  // rounded on its own, as the ISA without FMA does
      return product + acc;
    };
    for (int64_t k : {1, 2, 3, 5, 9, 16, 25})
      for (int64_t n : {1, 7, 13, 16, 28, 40, 56})
        for (int64_t nrows : {1, 3, 5}) {
          const int64_t stride = 128;  // each depth row's own run in `pool`, room for the rows' ends
          std::vector<float> pool(static_cast<size_t>(k * stride + 64), inf);
          std::vector<const float*> rows(static_cast<size_t>(k));
          std::vector<int64_t> offsets(static_cast<size_t>(nrows));
          for (int64_t r = 0; r < nrows; ++r) offsets[static_cast<size_t>(r)] = 3 + 2 * r;
          for (int64_t p = 0; p < k; ++p) {
            const int64_t at = ((p * 5) % k) * stride;
            rows[static_cast<size_t>(p)] = pool.data() + at;
            for (int64_t r = 0; r < nrows; ++r)  // the columns read are finite
              for (int64_t j = 0; j < n; ++j) pool[static_cast<size_t>(at + offsets[static_cast<size_t>(r)] + j)] = next();
          }
          std::vector<float> g(static_cast<size_t>(nrows * n + 16), inf);  // the guard past the rows
          for (int64_t i = 0; i < nrows * n; ++i) g[static_cast<size_t>(i)] = next();
          std::vector<float> acc(static_cast<size_t>(k * 16));
          for (float& v : acc) v = next();
          std::vector<float> want = acc;
          for (int64_t p = 0; p < k; ++p)
            for (int64_t r = 0; r < nrows; ++r)
              for (int64_t j = 0; j < n; ++j) {
                float& w = want[static_cast<size_t>(p * 16 + j % 16)];
                w = step(w, rows[static_cast<size_t>(p)][offsets[static_cast<size_t>(r)] + j],
                         g[static_cast<size_t>(r * n + j)]);
              }
          t->f32.convGradLanes(rows.data(), offsets.data(), nrows, n, g.data(), acc.data(), k);
          ASSERT_EQ(std::memcmp(acc.data(), want.data(), want.size() * sizeof(float)), 0)
              << isa << " convGradLanes " << k << " depth rows, " << nrows << " rows of " << n;
        }
  }
}

TEST(Numerics, SoftmaxRowsDoNotDependOnTheirPosition) {
  // The same row at every row index of matrices of 1..20 rows gives the same bits,
  // and a row with a -100 gap keeps its subnormal probability.
  const std::vector<LD> row = {0, -100, -50, 3, -0.0L, 1e-30L, -87.5L};
  const int64_t C = static_cast<int64_t>(row.size());
  std::vector<uint64_t> first;
  for (int64_t rows = 1; rows <= 20; ++rows) {
    Tensor x(DType::F32, {rows, C});
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < C; ++c) x.set(r * C + c, row[c]);
    const Tensor y = runOp(OpCode::Softmax, {&x}, {DType::F32, {rows, C}});
    if (first.empty()) {
      for (int64_t c = 0; c < C; ++c) first.push_back(y.raw(c));
      LD z = 0;
      for (LD v : row) z += std::exp(v - 3);
      EXPECT_LE(ulpError(DType::F32, y.get(1), std::exp(LD(-103)) / z), 2.0);
    }
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < C; ++c) EXPECT_EQ(y.raw(r * C + c), first[c]) << "row " << r << " of " << rows;
  }
}

// The same row (or channel) at every index of 1..20 gives the same bits in
// layer_norm, group_norm and batch_norm_inference, f32 and f64, for 40 rows of
// random values: a result does not depend on where its row lies (batch_norm's
// 1 / sqrt was Eigen's approximate vector rsqrt for channels in whole vectors and
// the exact one for the rest).
TEST(Numerics, NormalisationsDoNotDependOnPosition) {
  std::vector<LD> row = {0.1L, -3, 2.5L, 7, -0.0L, 1e-3L, 4.25L};
  const int64_t C = static_cast<int64_t>(row.size());
  uint64_t seed = 12345;
  for (int trial = 0; trial < 40; ++trial) {
    if (trial > 0)
      for (LD& v : row) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        v = static_cast<LD>(static_cast<int64_t>(seed >> 40) % 2000) / 64 - 15;
      }
    for (DType dt : {DType::F32, DType::F64}) {
      Tensor gamma(dt, {C}), beta(dt, {C});
      for (int64_t c = 0; c < C; ++c) gamma.set(c, 1.5L + c), beta.set(c, 0.25L * c);
      std::vector<uint64_t> firstLayer;
      for (int64_t rows = 1; rows <= 20; ++rows) {
        Tensor x(dt, {rows, C});
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < C; ++c) x.set(r * C + c, row[c]);
        const Tensor y = runOpWith(OpCode::LayerNorm, {&x, &gamma, &beta}, {{dt, {rows, C}}})[0];
        if (firstLayer.empty())
          for (int64_t c = 0; c < C; ++c) firstLayer.push_back(y.raw(c));
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < C; ++c)
            EXPECT_EQ(y.raw(r * C + c), firstLayer[c]) << dtypeName(dt) << " layer_norm row " << r << " of " << rows;
      }
      // group_norm over [n, 1 channel, C] and batch_norm_inference over [1, n channels,
      // C]: every group or channel holds `row`, with the same parameters.
      std::vector<uint64_t> firstGroup, firstBatch;
      for (int64_t n = 1; n <= 20; ++n) {
        Tensor x(dt, {n, 1, C}), one(dt, {1}), zero(dt, {1});
        one.set(0, 1.5L), zero.set(0, 0.25L);
        for (int64_t i = 0; i < n; ++i)
          for (int64_t c = 0; c < C; ++c) x.set(i * C + c, row[c]);
        const Tensor g = runOpWith(OpCode::GroupNorm, {&x, &one, &zero}, {{dt, {n, 1, C}}},
                                   {{"groups", Attr::integer(1)}})[0];
        Tensor xb(dt, {1, n, C}), scale(dt, {n}), bias(dt, {n}), mean(dt, {n}), var(dt, {n});
        for (int64_t i = 0; i < n * C; ++i) xb.set(i, x.get(i));
        for (int64_t ch = 0; ch < n; ++ch)
          scale.set(ch, 1.5L), bias.set(ch, 0.25L), mean.set(ch, 0.5L), var.set(ch, row[0] * row[0] + 0.75L);
        const Tensor b = runOpWith(OpCode::BatchNormInference, {&xb, &scale, &bias, &mean, &var}, {{dt, {1, n, C}}})[0];
        if (firstGroup.empty())
          for (int64_t c = 0; c < C; ++c) firstGroup.push_back(g.raw(c)), firstBatch.push_back(b.raw(c));
        for (int64_t i = 0; i < n; ++i)
          for (int64_t c = 0; c < C; ++c) {
            EXPECT_EQ(g.raw(i * C + c), firstGroup[c]) << dtypeName(dt) << " group_norm group " << i << " of " << n;
            EXPECT_EQ(b.raw(i * C + c), firstBatch[c]) << dtypeName(dt) << " batch_norm channel " << i << " of " << n;
          }
      }
    }
  }
}

// ---- threads --------------------------------------------------------------------------------

TEST(Numerics, KernelThreadsGiveTheSameBits) {
  const int64_t n = 1 << 19;
  Tensor x(DType::F32, {n}), b(DType::F32, {n});
  for (int64_t i = 0; i < n; ++i) {
    x.set(i, std::sin(i * 0.001) * 30);
    b.set(i, std::cos(i * 0.002));
  }
  const Tensor t1 = runOp(OpCode::Tanh, {&x}, {DType::F32, {n}});
  const Tensor a1 = runOp(OpCode::Add, {&x, &b}, {DType::F32, {n}});
  const Tensor s1 = runOp(OpCode::Sin, {&x}, {DType::F32, {n}});
  const Tensor e1 = runOp(OpCode::Erf, {&x}, {DType::F32, {n}});
  const Tensor g1 = runOp(OpCode::GeluErf, {&x}, {DType::F32, {n}});
  simd::setKernelThreads(2);
  const Tensor t2 = runOp(OpCode::Tanh, {&x}, {DType::F32, {n}});
  const Tensor a2 = runOp(OpCode::Add, {&x, &b}, {DType::F32, {n}});
  const Tensor s2 = runOp(OpCode::Sin, {&x}, {DType::F32, {n}});
  const Tensor e2 = runOp(OpCode::Erf, {&x}, {DType::F32, {n}});
  const Tensor g2 = runOp(OpCode::GeluErf, {&x}, {DType::F32, {n}});
  simd::setKernelThreads(1);
  EXPECT_EQ(t1.bytes, t2.bytes);
  EXPECT_EQ(a1.bytes, a2.bytes);
  EXPECT_EQ(s1.bytes, s2.bytes);
  EXPECT_EQ(e1.bytes, e2.bytes);
  EXPECT_EQ(g1.bytes, g2.bytes);
  // Each element is the table's kernel on that element alone.
  const simd::TypedTable<float>& f32 = simd::table().f32;
  for (int64_t i = 0; i < n; i += 4099) {
    float v, one;
    std::memcpy(&v, x.bytes.data() + i * 4, 4);
    f32.unary[simd::kErf](&v, &one, 1);
    EXPECT_EQ(e2.get(i), static_cast<LD>(one)) << "erf at " << i;
    f32.unary[simd::kGeluErf](&v, &one, 1);
    EXPECT_EQ(g2.get(i), static_cast<LD>(one)) << "gelu_erf at " << i;
  }
}

// pow's exponents 2, 3, -1 and 1 are the products (the ops reduce-powers puts in the
// pow's place give the same bits): x x, (x x) x, 1 / x, x; any other exponent is the C
// library's pow. (powf(x, 3) differs from (x x) x on many of these inputs.)
TEST(Numerics, PowOfSmallIntegerExponentsIsTheProduct) {
  const int64_t n = 4096;
  Tensor x(DType::F32, {n});
  for (int64_t i = 0; i < n; ++i) x.set(i, std::sin(i * 0.37) * 40 + 1e-3 * i);
  for (const float c : {2.0f, 3.0f, -1.0f, 1.0f, 0.5f}) {
    Tensor y(DType::F32, {});
    y.set(0, c);
    const Tensor p = runOp(OpCode::Pow, {&x, &y}, {DType::F32, {n}});
    for (int64_t i = 0; i < n; ++i) {
      const float v = static_cast<float>(x.get(i));
      const float want = c == 2 ? v * v : c == 3 ? (v * v) * v : c == -1 ? 1 / v : c == 1 ? v : std::pow(v, c);
      const float got = static_cast<float>(p.get(i));
      ASSERT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << "x = " << v << ", exponent " << c;
    }
  }
}

// topk's one-pass insertion (k up to 32) and its partial sort (larger k) give what a
// stable sort of (value, index) gives, with NaN the largest and ties by index, for the
// largest and the smallest, along the last axis and a middle one.
TEST(Numerics, TopKEqualsASortOfValueAndIndex) {
  const int64_t rows = 6, len = 97;
  Tensor x(DType::F32, {rows, len});
  for (int64_t i = 0; i < rows * len; ++i) {
    const int64_t r = i % 23;
    x.set(i, r == 5 ? std::numeric_limits<LD>::quiet_NaN() : static_cast<LD>((i * 7919) % 41) / 4);  // ties
  }
  for (const bool largest : {true, false})
    for (const int64_t k : {int64_t{1}, int64_t{8}, int64_t{32}, int64_t{33}, len}) {
      const std::vector<Tensor> r = runOpWith(OpCode::TopK, {&x}, {{DType::F32, {rows, k}}, {DType::I32, {rows, k}}},
                                              {{"k", Attr::integer(k)}, {"largest", Attr::boolean(largest)}});
      for (int64_t row = 0; row < rows; ++row) {
        std::vector<int64_t> order(static_cast<size_t>(len));
        std::iota(order.begin(), order.end(), int64_t{0});
        auto v = [&](int64_t j) { return x.get(row * len + j); };
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          const bool na = std::isnan(v(a)), nb = std::isnan(v(b));
          if (na || nb) return !na || !nb ? (largest ? na : nb) : false;
          return largest ? v(a) > v(b) : v(a) < v(b);
        });
        for (int64_t j = 0; j < k; ++j) {
          int32_t index;
          std::memcpy(&index, r[1].bytes.data() + (row * k + j) * 4, 4);
          ASSERT_EQ(index, order[static_cast<size_t>(j)]) << "row " << row << " k " << k << " largest " << largest;
          ASSERT_EQ(r[0].raw(row * k + j), x.raw(row * len + order[static_cast<size_t>(j)]));
        }
      }
    }
}

// Broadcasting binaries split their runs over the kernel threads (each part starts at
// its first run's index over the outer dims): the same bits at 1 and 2 threads, and
// every element the op on the operands' broadcast elements, for a bias over rows, an
// operand repeated along a middle dim, a where and a scaled_add of that shape; and a
// large copy (reshape) splits into byte ranges that give back every byte.
TEST(Numerics, BroadcastsAndCopiesSplitOverThreadsGiveTheSameBits) {
  const int64_t A = 7, B = 33, C = 130;  // 30030 elements: above the split threshold
  const TensorType t{DType::F32, {A, B, C}};
  Tensor x(DType::F32, {A, B, C}), bias(DType::F32, {C}), mid(DType::F32, {A, 1, C}), cond(DType::Bool, {A, B, 1});
  for (int64_t i = 0; i < x.type.numElements(); ++i) x.set(i, std::sin(i * 0.013) * 3);
  for (int64_t i = 0; i < C; ++i) bias.set(i, std::cos(i * 0.7));
  for (int64_t i = 0; i < A * C; ++i) mid.set(i, 1 + i % 17);
  for (int64_t i = 0; i < A * B; ++i) cond.bytes[static_cast<size_t>(i)] = i % 3 == 0;
  auto all = [&] {
    return std::vector<Tensor>{
        runOp(OpCode::Add, {&x, &bias}, t), runOp(OpCode::Sub, {&mid, &x}, t),
        runOpWith(OpCode::Where, {&cond, &x, &mid}, {t})[0],
        runOpWith(OpCode::ScaledAdd, {&x, &mid}, {t}, {{"a", Attr::real(0.5)}, {"b", Attr::real(-2)}})[0],
        runOpWith(OpCode::Reshape, {&x}, {{DType::F32, {A * B, C}}}, {{"shape", intList({A * B, C})}})[0]};
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
  for (int64_t a = 0; a < A; ++a)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t c = 0; c < C; c += 7) {
        const int64_t i = (a * B + b) * C + c;
        const float xv = static_cast<float>(x.get(i)), mv = static_cast<float>(mid.get(a * C + c));
        ASSERT_EQ(static_cast<float>(one[0].get(i)), xv + static_cast<float>(bias.get(c))) << i;
        ASSERT_EQ(static_cast<float>(one[1].get(i)), mv - xv) << i;
        ASSERT_EQ(static_cast<float>(one[2].get(i)), (a * B + b) % 3 == 0 ? xv : mv) << i;
        ASSERT_EQ(static_cast<float>(one[3].get(i)), 0.5f * xv + -2.0f * mv) << i;
      }
  EXPECT_EQ(one[4].bytes, x.bytes);
}

// The SIMD table's reductions against their serial definitions on every ISA: max
// and min as the serial fold m = op(m, x) (the first NaN; among equal zeros, the
// last), argmax and argmin as the serial visit (the first visited that no later one
// beats, a NaN beating everything, from the end with select_last_index), prod,
// sumsquare and the absolute sum within a few roundings of long-double sums. Rows of
// many ties (small integers, +0 and -0), some with a NaN, lengths around the vector
// widths; over contiguous rows and over rows of columns.
template <class S>
void checkReductionsOnTable(const simd::TypedTable<S>& f, const char* isa) {
  auto fold = [](const std::vector<S>& v, size_t first, size_t n, size_t step, bool isMax) {
    S m = v[first];
    for (size_t k = 1; k < n; ++k) {
      const S x = v[first + k * step];
      m = (m != m || (isMax ? m > x : m < x)) ? m : x;
    }
    return m;
  };
  auto visit = [](const std::vector<S>& v, size_t first, size_t n, size_t step, bool isMax, bool last) {
    int64_t best = last ? static_cast<int64_t>(n) - 1 : 0;
    S bv = v[first + static_cast<size_t>(best) * step];
    for (int64_t k = 1, i = best + (last ? -1 : 1); k < static_cast<int64_t>(n) && bv == bv; ++k, i += last ? -1 : 1) {
      const S x = v[first + static_cast<size_t>(i) * step];
      if (x != x || (isMax ? x > bv : x < bv)) best = i, bv = x;
    }
    return best;
  };
  auto same = [](S a, S b) { return (a != a && b != b) || std::memcmp(&a, &b, sizeof a) == 0; };
  // Mixed values; none above zero (a zero maximum); none below zero (a zero minimum).
  for (int64_t n : {1, 7, 16, 31, 32, 33, 64, 100, 257})
    for (int sign : {0, -1, 1})
      for (int nanAt : {-1, 0, 5, 40}) {
        std::vector<S> v(static_cast<size_t>(n) * 3);
        for (size_t i = 0; i < v.size(); ++i) {
          const S x = static_cast<S>(static_cast<int>((i * 7919) % 7) - 3);
          v[i] = sign == 0 ? x : sign < 0 ? -std::fabs(x) - 1 : std::fabs(x) + 1;
        }
        for (size_t i = 0; i < v.size(); i += 5) v[i] = (i / 5) % 2 ? S(-0.0) : S(0.0);
        if (nanAt >= 0 && nanAt < n) v[static_cast<size_t>(nanAt)] = std::numeric_limits<S>::quiet_NaN();
        const std::string where = std::string(isa) + " n=" + std::to_string(n) + " sign " + std::to_string(sign) +
                                  " nan at " + std::to_string(nanAt);
        for (bool isMax : {false, true}) {
          const int kind = isMax ? simd::kReduceMax : simd::kReduceMin;
          EXPECT_TRUE(same(f.reduceRow[kind](v.data(), n), fold(v, 0, n, 1, isMax))) << where;
          for (bool last : {false, true})
            EXPECT_EQ(f.argRow[isMax](v.data(), n, last), visit(v, 0, n, 1, isMax, last)) << where << " last " << last;
          // Three columns over n rows of a [n, 3] array.
          std::vector<S> y(3);
          std::vector<int32_t> at(3);
          f.reduceRows[kind](v.data(), n, 3, 3, y.data());
          for (bool last : {false, true}) {
            f.argRows[isMax](v.data(), n, 3, 3, last, at.data());
            for (size_t c = 0; c < 3; ++c) EXPECT_EQ(at[c], visit(v, c, n, 3, isMax, last)) << where << " column " << c;
          }
          for (size_t c = 0; c < 3; ++c) EXPECT_TRUE(same(y[c], fold(v, c, n, 3, isMax))) << where << " column " << c;
        }
        if (nanAt >= 0) continue;
        LD prod = 1, squares = 0, abs = 0, size = 0;
        for (int64_t i = 0; i < n; ++i) {
          const LD x = static_cast<LD>(S(1) + v[static_cast<size_t>(i)] / S(64));
          prod *= x, squares += x * x, abs += std::fabs(x), size += 1;
        }
        std::vector<S> w(v.begin(), v.begin() + n);
        for (S& x : w) x = S(1) + x / S(64);  // products of moderate size, no zeros
        const LD eps = std::numeric_limits<S>::epsilon();
        EXPECT_NEAR(f.reduceRow[simd::kReduceProd](w.data(), n), prod, std::fabs(prod) * eps * 2 * size) << where;
        EXPECT_NEAR(f.reduceRow[simd::kReduceSumSquare](w.data(), n), squares, squares * eps * size) << where;
        EXPECT_NEAR(f.reduceRow[simd::kReduceAbsSum](w.data(), n), abs, abs * eps * size) << where;
      }
  // |-0| is +0: an absolute sum of negative zeros.
  const std::vector<S> zeros(40, S(-0.0));
  EXPECT_FALSE(std::signbit(f.reduceRow[simd::kReduceAbsSum](zeros.data(), 40))) << isa;
}

TEST(Numerics, TableReductionsFollowTheirSerialDefinitionsOnEveryIsa) {
  int tables = 0;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    ++tables;
    checkReductionsOnTable(t->f32, isa);
    checkReductionsOnTable(t->f64, isa);
  }
  EXPECT_GE(tables, 1);
}

// The Reduce ops over the last, a middle and the first axis of f32[3, 37, 45] equal
// the same reductions of each output's elements taken in order (max, min, argmax,
// argmin exactly; the sums within a few roundings of long-double sums), logsumexp
// included.
TEST(Numerics, ReductionsOverAnyAxisEqualTheirDefinitions) {
  const Shape shape{3, 37, 45};
  Tensor x(DType::F32, shape);
  const int64_t n = 3 * 37 * 45;
  for (int64_t i = 0; i < n; ++i) x.set(i, std::sin(i * 0.61) * 3 + ((i * 31) % 5 == 0 ? 0.0 : 0.25));
  const Shape strides{37 * 45, 45, 1};
  for (int64_t axis = 0; axis < 3; ++axis) {
    Shape kept;
    for (int64_t d = 0; d < 3; ++d)
      if (d != axis) kept.push_back(shape[d]);
    const TensorType outF{DType::F32, kept}, outI{DType::I32, kept};
    const std::vector<std::pair<std::string, Attr>> attrs{{"axis", intList({axis})}};
    auto run = [&](OpCode code) { return runOpWith(code, {&x}, {outF}, attrs)[0]; };
    const Tensor mx = run(OpCode::Max), mn = run(OpCode::Min), pr = run(OpCode::Prod), sq = run(OpCode::SumSquare),
                 l1 = run(OpCode::L1), l2 = run(OpCode::L2), lse = run(OpCode::LogSumExp);
    for (bool last : {false, true}) {
      const std::vector<std::pair<std::string, Attr>> argAttrs{{"axis", Attr::integer(axis)},
                                                               {"select_last_index", Attr::boolean(last)}};
      const Tensor am = runOpWith(OpCode::ArgMax, {&x}, {outI}, argAttrs)[0];
      const Tensor an = runOpWith(OpCode::ArgMin, {&x}, {outI}, argAttrs)[0];
      for (int64_t o = 0; o < outF.numElements(); ++o) {
        // The output's first element and the step along `axis`.
        const int64_t a0 = o / kept[1], a1 = o % kept[1];
        const int64_t base = axis == 0   ? a0 * strides[1] + a1 * strides[2]
                             : axis == 1 ? a0 * strides[0] + a1 * strides[2]
                                         : a0 * strides[0] + a1 * strides[1];
        const int64_t step = strides[axis], len = shape[axis];
        int64_t argMax = last ? len - 1 : 0, argMin = argMax;
        for (int64_t k = 1, i = argMax + (last ? -1 : 1); k < len; ++k, i += last ? -1 : 1) {
          if (x.get(base + i * step) > x.get(base + argMax * step)) argMax = i;
          if (x.get(base + i * step) < x.get(base + argMin * step)) argMin = i;
        }
        const auto index = [o](const Tensor& t) { return reinterpret_cast<const int32_t*>(t.bytes.data())[o]; };
        EXPECT_EQ(index(am), argMax) << "axis " << axis << " output " << o << " last " << last;
        EXPECT_EQ(index(an), argMin) << "axis " << axis << " output " << o << " last " << last;
        if (last) continue;
        LD p = 1, s2 = 0, s1 = 0, se = 0;
        for (int64_t i = 0; i < len; ++i) {
          const LD v = x.get(base + i * step);
          p *= v, s2 += v * v, s1 += std::fabs(v);
        }
        const LD m = x.get(base + argMax * step);
        for (int64_t i = 0; i < len; ++i) se += std::exp(x.get(base + i * step) - m);
        const LD eps = std::numeric_limits<float>::epsilon() * len;
        EXPECT_EQ(mx.get(o), m) << "axis " << axis << " output " << o;
        EXPECT_EQ(mn.get(o), x.get(base + argMin * step)) << "axis " << axis << " output " << o;
        EXPECT_NEAR(pr.get(o), p, std::fabs(p) * 2 * eps) << "axis " << axis << " output " << o;
        EXPECT_NEAR(sq.get(o), s2, s2 * eps) << "axis " << axis << " output " << o;
        EXPECT_NEAR(l1.get(o), s1, s1 * eps) << "axis " << axis << " output " << o;
        EXPECT_NEAR(l2.get(o), std::sqrt(s2), std::sqrt(s2) * eps) << "axis " << axis << " output " << o;
        EXPECT_NEAR(lse.get(o), std::log(se) + m, 4 * eps) << "axis " << axis << " output " << o;
      }
    }
  }
}

// The reductions over a leading and a trailing block of axes around the kept ones (a
// conv bias gradient's N and H, W around C): f32[6, 5, 7, 33] over axes 0, 2 and 3
// equal the same reductions of each channel's elements taken in order (max and min
// exactly, the sums within a few roundings of long-double sums), with the same bits
// at 1 and 2 threads.
TEST(Numerics, ReductionsAroundKeptAxesEqualTheirDefinitions) {
  const int64_t N = 6, C = 5, HW = 7 * 33;
  Tensor x(DType::F32, {N, C, 7, 33});
  for (int64_t i = 0; i < N * C * HW; ++i) x.set(i, 1 + std::sin(i * 0.61) * 0.02);  // a product of normal size
  const TensorType out{DType::F32, {C}};
  const std::vector<std::pair<std::string, Attr>> attrs{{"axis", intList({0, 2, 3})}};
  const OpCode codes[] = {OpCode::Sum, OpCode::Mean, OpCode::Prod, OpCode::Max,
                          OpCode::Min, OpCode::SumSquare, OpCode::L1, OpCode::L2};
  auto all = [&] {
    std::vector<Tensor> r;
    for (OpCode code : codes) r.push_back(runOpWith(code, {&x}, {out}, attrs)[0]);
    return r;
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
  for (int64_t c = 0; c < C; ++c) {
    LD sum = 0, prod = 1, sq = 0, mx = -INFINITY, mn = INFINITY;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t j = 0; j < HW; ++j) {
        const LD v = x.get((n * C + c) * HW + j);
        sum += v, prod *= v, sq += v * v, mx = std::max(mx, v), mn = std::min(mn, v);
      }
    const LD eps = std::numeric_limits<float>::epsilon() * N * HW;
    EXPECT_NEAR(one[0].get(c), sum, sum * eps) << c;
    EXPECT_NEAR(one[1].get(c), sum / (N * HW), sum / (N * HW) * eps) << c;
    EXPECT_NEAR(one[2].get(c), prod, prod * 2 * eps) << c;
    EXPECT_EQ(one[3].get(c), mx) << c;
    EXPECT_EQ(one[4].get(c), mn) << c;
    EXPECT_NEAR(one[5].get(c), sq, sq * eps) << c;
    EXPECT_NEAR(one[6].get(c), sum, sum * eps) << c;  // all elements are positive
    EXPECT_NEAR(one[7].get(c), std::sqrt(sq), std::sqrt(sq) * eps) << c;
  }
}

// Along the last axis, log_softmax takes the logarithms of a block of rows' sums in one
// call: each row still gives the bits it gives alone, across block boundaries (150
// rows), with rows of +inf, NaN and -inf (all NaN) among them, on 1 and 2 threads.
TEST(Numerics, LogSoftmaxRowsGiveTheirBitsAlone) {
  const int64_t rows = 150, cols = 37;
  Tensor x(DType::F32, {rows, cols});
  for (int64_t i = 0; i < rows * cols; ++i) x.set(i, std::sin(i * 0.37) * 4);
  const LD inf = std::numeric_limits<LD>::infinity();
  x.set(63 * cols + 5, inf);
  x.set(64 * cols + 2, std::numeric_limits<LD>::quiet_NaN());
  for (int64_t c = 0; c < cols; ++c) x.set(100 * cols + c, -inf);
  const TensorType type{DType::F32, {rows, cols}};
  const std::vector<std::pair<std::string, Attr>> axis{{"axis", Attr::integer(-1)}};
  auto all = [&] { return std::vector<Tensor>{runOpWith(OpCode::LogSoftmax, {&x}, {type}, axis)[0]}; };
  const Tensor y = sameBytesAtOneAndTwoThreads(all)[0];
  for (int64_t r = 0; r < rows; ++r) {
    Tensor row(DType::F32, {1, cols});
    for (int64_t c = 0; c < cols; ++c) row.set(c, x.get(r * cols + c));
    const Tensor alone = runOpWith(OpCode::LogSoftmax, {&row}, {{DType::F32, {1, cols}}}, axis)[0];
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_EQ(y.raw(r * cols + c), alone.raw(c)) << "row " << r << " column " << c;
  }
  EXPECT_TRUE(std::isnan(static_cast<double>(y.get(63 * cols))));
  EXPECT_TRUE(std::isnan(static_cast<double>(y.get(100 * cols + 7))));
  EXPECT_FALSE(std::isnan(static_cast<double>(y.get(65 * cols))));
}

// softmax and log_softmax along every axis of f32[3, 37, 45] agree with long-double
// definitions; a column whose maximum is +inf is NaN throughout (PyTorch); the same
// bits at 1 and 2 threads (a leading axis of f32[64, 600] splits its columns, a middle
// one of f32[4, 64, 600] its slabs).
TEST(Numerics, SoftmaxOverAnyAxisEqualsItsDefinition) {
  const Shape shape{3, 37, 45};
  const Shape strides{37 * 45, 45, 1};
  Tensor x(DType::F32, shape);
  for (int64_t i = 0; i < 3 * 37 * 45; ++i) x.set(i, std::sin(i * 0.61) * 4);
  x.set(2 * 45 + 7, INFINITY);  // axis 0's column (., 2, 7) and axis 1's (0, ., 7)
  for (int64_t axis = 0; axis < 3; ++axis) {
    const std::vector<std::pair<std::string, Attr>> attrs{{"axis", Attr::integer(axis)}};
    const Tensor y = runOpWith(OpCode::Softmax, {&x}, {x.type}, attrs)[0];
    const Tensor ly = runOpWith(OpCode::LogSoftmax, {&x}, {x.type}, attrs)[0];
    const int64_t len = shape[axis], step = strides[axis];
    for (int64_t i = 0; i < 3 * 37 * 45; ++i) {
      if ((i / step) % len != 0) continue;  // i starts a line along `axis`
      LD m = -INFINITY, sum = 0;
      for (int64_t k = 0; k < len; ++k) m = std::max<LD>(m, x.get(i + k * step));
      for (int64_t k = 0; k < len; ++k) sum += std::exp(x.get(i + k * step) - m);
      for (int64_t k = 0; k < len; ++k) {
        const int64_t at = i + k * step;
        if (!std::isfinite(m)) {
          EXPECT_TRUE(std::isnan(y.get(at)) && std::isnan(ly.get(at))) << "axis " << axis << " element " << at;
          continue;
        }
        // f32's x - m rounds by up to |x - m| ulps of 1, which exp turns into as many
        // ulps of its result; a few more for exp, the sum and the division.
        const LD want = std::exp(x.get(at) - m) / sum, ulp = std::numeric_limits<float>::epsilon();
        const LD rel = (4 + std::fabs(x.get(at) - m)) * ulp;
        EXPECT_NEAR(y.get(at), want, rel * want) << "axis " << axis << " element " << at;
        EXPECT_NEAR(ly.get(at), std::log(want), rel + 2 * ulp * std::fabs(std::log(want)))
            << "axis " << axis << " element " << at;
      }
    }
  }
  Tensor lead(DType::F32, {64, 600}), mid(DType::F32, {4, 64, 600});
  for (Tensor* t : {&lead, &mid})
    for (int64_t i = 0; i < t->type.numElements(); ++i) t->set(i, std::cos(i * 0.37) * 5);
  auto all = [&] {
    std::vector<Tensor> r;
    for (OpCode code : {OpCode::Softmax, OpCode::LogSoftmax}) {
      r.push_back(runOpWith(code, {&lead}, {lead.type}, {{"axis", Attr::integer(0)}})[0]);
      r.push_back(runOpWith(code, {&mid}, {mid.type}, {{"axis", Attr::integer(1)}})[0]);
    }
    return r;
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
}

// cumsum along contiguous rows (the last axis) runs several rows at a time: each row
// still gets y[k] = y[k-1] + x[k] from y[0] = x[0] (exclusive: shifted one on from 0;
// reverse: from the end), bit for bit, for 7 rows (a group of four and a rest), f32
// and f64, and i32 wrapping past its range.
template <class S>
void checkCumsumAlongRows(DType dt) {
  const int64_t rows = 7, len = 37;
  Tensor x(dt, {rows, len});
  S* xs = reinterpret_cast<S*>(x.bytes.data());
  for (int64_t i = 0; i < rows * len; ++i)
    xs[i] = std::is_integral_v<S> ? static_cast<S>((i * 7919) % 2000000000 - 1000000000)
                                  : static_cast<S>(std::sin(i * 0.7) * 1e3);
  using A = std::conditional_t<std::is_integral_v<S>, uint32_t, S>;  // integers wrap
  for (bool exclusive : {false, true})
    for (bool reverse : {false, true}) {
      const Tensor y = runOpWith(OpCode::CumSum, {&x}, {x.type},
                                 {{"axis", Attr::integer(1)},
                                  {"exclusive", Attr::boolean(exclusive)},
                                  {"reverse", Attr::boolean(reverse)}})[0];
      const S* ys = reinterpret_cast<const S*>(y.bytes.data());
      for (int64_t r = 0; r < rows; ++r) {
        A acc = 0;
        for (int64_t k = 0; k < len; ++k) {
          const int64_t i = r * len + (reverse ? len - 1 - k : k);
          const A before = acc;
          acc = k == 0 ? static_cast<A>(xs[i]) : static_cast<A>(acc + static_cast<A>(xs[i]));
          const S want = static_cast<S>(exclusive ? (k == 0 ? A(0) : before) : acc);
          ASSERT_EQ(std::memcmp(&ys[i], &want, sizeof want), 0)
              << dtypeName(dt) << " row " << r << " k " << k << " exclusive " << exclusive << " reverse " << reverse;
        }
      }
    }
}

TEST(Numerics, CumsumAlongRowsIsTheSerialRunningSum) {
  checkCumsumAlongRows<float>(DType::F32);
  checkCumsumAlongRows<double>(DType::F64);
  checkCumsumAlongRows<int32_t>(DType::I32);
}

// Sums over a leading or middle axis split their columns over the kernel threads: the
// same bits at 1 and 2 threads, and each the in-order float sum of its column (C
// columns: two parts of at least kMinSplitColumns, bounds off the vector width).
TEST(Numerics, SumsOverLeadingAxesSplitOverThreadsGiveTheSameBits) {
  const int64_t C = 2 * detail::kMinSplitColumns + 18;
  Tensor a(DType::F32, {300, C}), b(DType::F32, {4, 300, C});
  for (Tensor* t : {&a, &b})
    for (int64_t i = 0; i < t->type.numElements(); ++i) t->set(i, std::sin(i * 0.37) * 4 + (i % 11) * 1e-3);
  auto all = [&] {
    return std::vector<Tensor>{
        runOpWith(OpCode::Sum, {&a}, {{DType::F32, {C}}}, {{"axis", intList({0})}})[0],
        runOpWith(OpCode::Sum, {&b}, {{DType::F32, {4, C}}}, {{"axis", intList({1})}})[0]};
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
  for (int64_t c = 0; c < C; ++c) {
    float s = static_cast<float>(a.get(c));
    for (int64_t r = 1; r < 300; ++r) s += static_cast<float>(a.get(r * C + c));
    ASSERT_EQ(static_cast<float>(one[0].get(c)), s) << c;
  }
  for (int64_t o = 0; o < 4; ++o)
    for (int64_t c = 0; c < C; ++c) {
      float s = static_cast<float>(b.get(o * 300 * C + c));
      for (int64_t r = 1; r < 300; ++r) s += static_cast<float>(b.get((o * 300 + r) * C + c));
      ASSERT_EQ(static_cast<float>(one[1].get(o * C + c)), s) << o << " " << c;
    }
}

// The row kernels split their rows over the kernel threads when large: softmax,
// log_softmax, their gradients, layer_norm and layer_norm_grad give the same bits
// at 1 and 2 threads, with rows of an odd width (129), so that each part starts at
// another alignment (2100 rows of 129: twice the split threshold of 64K elements
// per thread, vm/kernel_util.h).
TEST(Numerics, RowKernelsSplitOverThreadsGiveTheSameBits) {
  const int64_t rows = 2100, C = 129;
  const TensorType t{DType::F32, {rows, C}}, v{DType::F32, {C}};
  Tensor x(DType::F32, {rows, C}), g(DType::F32, {rows, C}), gamma(DType::F32, {C}), beta(DType::F32, {C});
  for (int64_t i = 0; i < rows * C; ++i) {
    x.set(i, std::sin(i * 0.37) * 4 + (i % 11));
    g.set(i, std::cos(i * 0.11));
  }
  for (int64_t c = 0; c < C; ++c) gamma.set(c, 1 + 0.01 * c), beta.set(c, -0.5 + 0.02 * c);
  auto all = [&] {
    std::vector<Tensor> r;
    for (OpCode code : {OpCode::Softmax, OpCode::LogSoftmax}) r.push_back(runOpWith(code, {&x}, {t})[0]);
    r.push_back(runOpWith(OpCode::SoftmaxGrad, {&r[0], &g}, {t})[0]);
    r.push_back(runOpWith(OpCode::LogSoftmaxGrad, {&r[1], &g}, {t})[0]);
    r.push_back(runOpWith(OpCode::LayerNorm, {&x, &gamma, &beta}, {t})[0]);
    for (Tensor& y : runOpWith(OpCode::LayerNormGrad, {&x, &gamma, &g}, {t, v, v})) r.push_back(std::move(y));
    return r;
  };
  const std::vector<Tensor> one = all();
  for (int threads : {2, 3}) {
    simd::setKernelThreads(threads);
    const std::vector<Tensor> more = all();
    simd::setKernelThreads(1);
    ASSERT_EQ(one.size(), more.size());
    for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i].bytes, more[i].bytes) << threads << " threads, result " << i;
  }
  // layer_norm_grad's dgamma and dbeta (sums over 2100 rows, in blocks of rows) agree
  // with long-double sums of the same terms to within a few roundings per block.
  const Tensor& dgamma = one[one.size() - 2];
  const Tensor& dbeta = one[one.size() - 1];
  for (int64_t c = 0; c < C; ++c) {
    LD sumG = 0, sumGx = 0, absG = 0, absGx = 0;
    for (int64_t r = 0; r < rows; ++r) {
      LD mean = 0, var = 0;
      for (int64_t j = 0; j < C; ++j) mean += x.get(r * C + j);
      mean /= C;
      for (int64_t j = 0; j < C; ++j) var += (x.get(r * C + j) - mean) * (x.get(r * C + j) - mean);
      const LD xhat = (x.get(r * C + c) - mean) / std::sqrt(var / C + 1e-5L), gv = g.get(r * C + c);
      sumG += gv, absG += std::fabs(gv);
      sumGx += gv * xhat, absGx += std::fabs(gv * xhat);
    }
    EXPECT_NEAR(dbeta.get(c), sumG, 1e-6L * absG) << "column " << c;
    EXPECT_NEAR(dgamma.get(c), sumGx, 1e-6L * absGx) << "column " << c;
  }
}


// Large views and transposes split along their first dim: the same bytes at 1 and 2
// threads for a batch of 2-D transposes, a general permutation (attention's head
// split), a broadcast and a strided slice.
TEST(Numerics, ViewsSplitOverThreadsGiveTheSameBytes) {
  Tensor batch(DType::F32, {8, 300, 129}), heads(DType::F32, {16, 130, 4, 32}), row(DType::F32, {129}),
      wide(DType::F32, {2100, 129});
  for (Tensor* t : {&batch, &heads, &row, &wide})
    for (int64_t i = 0; i < t->type.numElements(); ++i) t->set(i, static_cast<LD>(i % 1000) - 0.5L);
  auto all = [&] {
    return std::vector<Tensor>{
        runOpWith(OpCode::Transpose, {&batch}, {{DType::F32, {8, 129, 300}}}, {{"perm", intList({0, 2, 1})}})[0],
        runOpWith(OpCode::Transpose, {&heads}, {{DType::F32, {16, 4, 130, 32}}}, {{"perm", intList({0, 2, 1, 3})}})[0],
        runOpWith(OpCode::Broadcast, {&row}, {{DType::F32, {2100, 129}}}, {{"shape", intList({2100, 129})}})[0],
        runOpWith(OpCode::Slice, {&wide}, {{DType::F32, {2100, 65}}},
                  {{"start", intList({0})}, {"stop", intList({129})}, {"step", intList({2})}, {"axes", intList({1})}})[0]};
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
  for (int64_t r = 0; r < 300; r += 37)
    for (int64_t c = 0; c < 129; c += 11) EXPECT_EQ(one[0].get(5 * 129 * 300 + c * 300 + r), batch.get(5 * 300 * 129 + r * 129 + c));
  EXPECT_EQ(one[3].get(2099 * 65 + 64), wide.get(2099 * 129 + 128));
}

// A large batch of convolutions splits into blocks of images fixed by the shape
// (vm/kernels_conv_gemm.cpp), run on the kernel threads: conv, conv_grad_input and
// conv_grad_weight (whose partial sums are added in block order) give the same bits
// at 1 and 2 threads, with 2 and with 4 blocks and a batch the blocks do not divide.
TEST(Numerics, ConvolutionsSplitOverThreadsGiveTheSameBits) {
  for (int64_t batch : {7, 8, 23}) {
    const int64_t C = 3, H = 32, W = 32, O = 5;
    Tensor x(DType::F32, {batch, C, H, W}), w(DType::F32, {O, C, 3, 3}), g(DType::F32, {batch, O, H, W});
    for (int64_t i = 0; i < x.type.numElements(); ++i) x.set(i, std::sin(i * 0.013) * 3);
    for (int64_t i = 0; i < w.type.numElements(); ++i) w.set(i, std::cos(i * 0.7));
    for (int64_t i = 0; i < g.type.numElements(); ++i) g.set(i, std::sin(i * 0.029 + 1));
    const Attr pad = intList({1, 1, 1, 1});
    auto all = [&] {
      return std::vector<Tensor>{
          runOpWith(OpCode::Conv, {&x, &w}, {g.type}, {{"padding", pad}})[0],
          runOpWith(OpCode::ConvGradInput, {&g, &w}, {x.type}, {{"shape", intList(x.type.shape)}, {"padding", pad}})[0],
          runOpWith(OpCode::ConvGradWeight, {&x, &g}, {w.type}, {{"shape", intList(w.type.shape)}, {"padding", pad}})[0]};
    };
    const std::vector<Tensor> one = all();
    simd::setKernelThreads(2);
    const std::vector<Tensor> two = all();
    simd::setKernelThreads(1);
    for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i].bytes, two[i].bytes) << "batch " << batch << " result " << i;
    // One value of each against a direct sum (to within f32 rounding).
    LD y = 0, dw = 0;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t kh = 0; kh < 3; ++kh)
        for (int64_t kw = 0; kw < 3; ++kw) y += x.get(((batch - 1) * C + c) * H * W + (4 + kh - 1) * W + (5 + kw - 1)) *
                                                w.get(((2 * C + c) * 3 + kh) * 3 + kw);
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t i = 1; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) dw += x.get((n * C + 1) * H * W + (i - 1) * W + j) * g.get((n * O + 3) * H * W + i * W + j);
    EXPECT_NEAR(static_cast<double>(two[0].get(((batch - 1) * O + 2) * H * W + 4 * W + 5)), static_cast<double>(y), 1e-4);
    EXPECT_NEAR(static_cast<double>(two[2].get(((3 * C + 1) * 3 + 0) * 3 + 1)), static_cast<double>(dw), 1e-3 * std::fabs(static_cast<double>(dw)) + 1e-3);
  }
}

// sum and mean over axes that are not adjacent (a conv bias's gradient: [N, C, H, W]
// over N, H and W) reorder and sum their rows split over the kernel threads: the same
// bits at 1 and 2 threads, and each output the direct sum to within f32 rounding.
TEST(Numerics, SumsOverReorderedAxesSplitOverThreadsGiveTheSameBits) {
  const int64_t N = 12, C = 7, H = 15, W = 17;
  Tensor x(DType::F32, {N, C, H, W});
  for (int64_t i = 0; i < x.type.numElements(); ++i) x.set(i, std::sin(i * 0.091) * 2 + 0.125);
  const std::vector<std::pair<std::string, Attr>> axes{{"axis", intList({0, 2, 3})}};
  auto all = [&] {
    return std::vector<Tensor>{runOpWith(OpCode::Sum, {&x}, {{DType::F32, {C}}}, axes)[0],
                               runOpWith(OpCode::Mean, {&x}, {{DType::F32, {C}}}, axes)[0]};
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
  for (int64_t c = 0; c < C; ++c) {
    LD ref = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t p = 0; p < H * W; ++p) ref += x.get((n * C + c) * H * W + p);
    EXPECT_NEAR(static_cast<double>(one[0].get(c)), static_cast<double>(ref), 1e-3) << c;
    EXPECT_NEAR(static_cast<double>(one[1].get(c)), static_cast<double>(ref / (N * H * W)), 1e-6) << c;
  }
}

// max_pool and max_pool_grad of 2x2 windows split their planes over the kernel
// threads: the same bits at 1 and 2 threads, an odd input width (a column no window
// reads), each output its window's maximum and each gradient at its window's maximum.
TEST(Numerics, PoolsSplitOverThreadsGiveTheSameBits) {
  const int64_t N = 6, C = 5, H = 30, W = 31, OH = 15, OW = 15;
  Tensor x(DType::F32, {N, C, H, W}), g(DType::F32, {N, C, OH, OW});
  for (int64_t i = 0; i < x.type.numElements(); ++i) x.set(i, std::sin(i * 0.77) * 3);
  for (int64_t i = 0; i < g.type.numElements(); ++i) g.set(i, 1 + (i % 13));
  const std::vector<std::pair<std::string, Attr>> kernel{{"kernel", intList({2, 2})}};
  auto all = [&] {
    return std::vector<Tensor>{runOpWith(OpCode::MaxPool, {&x}, {g.type}, kernel)[0],
                               runOpWith(OpCode::MaxPoolGrad, {&x, &g}, {x.type}, kernel)[0]};
  };
  const std::vector<Tensor> one = sameBytesAtOneAndTwoThreads(all);
  for (int64_t plane = 0; plane < N * C; plane += 7)
    for (int64_t oh = 0; oh < OH; oh += 3)
      for (int64_t ow = 0; ow < OW; ow += 2) {
        const int64_t base = plane * H * W + 2 * oh * W + 2 * ow;
        const int64_t cells[4] = {base, base + 1, base + W, base + W + 1};
        int64_t best = cells[0];
        for (int64_t c : cells)
          if (x.get(c) > x.get(best)) best = c;
        const int64_t o = (plane * OH + oh) * OW + ow;
        EXPECT_EQ(one[0].get(o), x.get(best)) << o;
        EXPECT_EQ(one[1].get(best), g.get(o)) << o;
      }
  for (int64_t plane = 0; plane < N * C; ++plane)
    for (int64_t h = 0; h < H; ++h) EXPECT_EQ(one[1].get(plane * H * W + h * W + W - 1), 0) << plane;
}

// A conv's window over 3 spatial axes (leading axes of size 1 for 1-D and 2-D).
struct ConvWindow3 {
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1}, padBegin{0, 0, 0};
};

// Long double sums of conv [N, O, out...] and its two gradients from x [N, C, in...],
// w [O, C / groups, kernel...] and g [N, O, out...]: every (image, output, input
// channel of its group, kernel cell) whose input cell is real adds its product.
struct ConvSums {
  std::vector<LD> y, dw, dx;
};
ConvSums convSums(const Tensor& x, const Tensor& w, const Tensor& g, int64_t N, int64_t C, int64_t O, int64_t groups,
                  const ConvWindow3& win) {
  ConvSums r{std::vector<LD>(static_cast<size_t>(g.size())), std::vector<LD>(static_cast<size_t>(w.size())),
             std::vector<LD>(static_cast<size_t>(x.size()))};
  const auto &in = win.in, &o3 = win.out, &k3 = win.kernel;
  const int64_t cg = C / groups, og = O / groups;
  const int64_t inSize = in[0] * in[1] * in[2], outSize = o3[0] * o3[1] * o3[2], kSize = k3[0] * k3[1] * k3[2];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t p = 0; p < outSize; ++p)
        for (int64_t ch = 0; ch < cg; ++ch)
          for (int64_t k = 0; k < kSize; ++k) {
            const int64_t pos[3] = {p / (o3[1] * o3[2]), p / o3[2] % o3[1], p % o3[2]};
            const int64_t kk[3] = {k / (k3[1] * k3[2]), k / k3[2] % k3[1], k % k3[2]};
            int64_t cell = 0;
            bool real = true;
            for (int d = 0; d < 3; ++d) {
              const int64_t i = pos[d] * win.stride[d] - win.padBegin[d] + kk[d] * win.dilation[d];
              real = real && i >= 0 && i < in[d];
              cell = cell * in[d] + i;
            }
            if (!real) continue;
            const int64_t xi = (n * C + o / og * cg + ch) * inSize + cell, wi = (o * cg + ch) * kSize + k;
            const int64_t yi = (n * O + o) * outSize + p;
            r.y[static_cast<size_t>(yi)] += x.get(xi) * w.get(wi);
            r.dw[static_cast<size_t>(wi)] += x.get(xi) * g.get(yi);
            r.dx[static_cast<size_t>(xi)] += g.get(yi) * w.get(wi);
          }
  return r;
}

// A conv's f32 operands over spatial dims `in` (padding [begin..., end...]): x [N, C,
// in...], w [O, C / groups, kernel...] and g [N, O, out...], filled with smooth values.
struct ConvOperands {
  std::vector<int64_t> out;
  Tensor x, w, g;
};
ConvOperands convOperands(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                          const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                          const std::vector<int64_t>& dilation, int64_t N, int64_t C, int64_t O, int64_t groups) {
  const size_t rank = in.size();
  std::vector<int64_t> out(rank);
  for (size_t d = 0; d < rank; ++d)
    out[d] = (in[d] + padding[d] + padding[rank + d] - dilation[d] * (kernel[d] - 1) - 1) / stride[d] + 1;
  Shape xs{N, C}, ws{O, C / groups}, ys{N, O};
  for (size_t d = 0; d < rank; ++d) xs.push_back(in[d]), ws.push_back(kernel[d]), ys.push_back(out[d]);
  ConvOperands r{out, Tensor(DType::F32, xs), Tensor(DType::F32, ws), Tensor(DType::F32, ys)};
  for (int64_t i = 0; i < r.x.size(); ++i) r.x.set(i, std::sin(i * 0.37) + 0.25);
  for (int64_t i = 0; i < r.w.size(); ++i) r.w.set(i, std::cos(i * 0.61));
  for (int64_t i = 0; i < r.g.size(); ++i) r.g.set(i, std::sin(i * 0.23 + 1));
  return r;
}

// The window of a Case-like description (spatial dims in order, padding [begin..., end...]).
ConvWindow3 window3(const std::vector<int64_t>& in, const std::vector<int64_t>& out, const std::vector<int64_t>& kernel,
                    const std::vector<int64_t>& stride, const std::vector<int64_t>& padding,
                    const std::vector<int64_t>& dilation) {
  ConvWindow3 w;
  const size_t rank = in.size();
  for (size_t d = 0; d < rank; ++d) {
    const size_t e = 3 - rank + d;
    w.in[e] = in[d], w.out[e] = out[d], w.kernel[e] = kernel[d], w.stride[e] = stride[d], w.dilation[e] = dilation[d];
    w.padBegin[e] = padding[d];
  }
  return w;
}

// conv and conv_grad_weight against direct sums over every output, for windows that
// take the column matrix's shifted-copy path (stride 1, rows as long as the input's:
// `same` paddings, dilated, uneven, 1-D and 3-D) and for some that do not (stride 2,
// unpadded), with several channels so that rows of one kernel cell follow another's.
TEST(Numerics, ConvolutionsMatchDirectSumsOverWindowShapes) {
  struct Case {
    std::vector<int64_t> in, kernel, stride, padding, dilation;
  };
  const std::vector<Case> cases = {
      {{9, 11}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},    // same, the CNN's
      {{7, 10}, {3, 5}, {1, 1}, {1, 2, 1, 2}, {1, 1}},    // same, wider kernel
      {{8, 9}, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}},     // same, dilated
      {{6, 9}, {2, 3}, {1, 1}, {0, 0, 1, 1}, {1, 1}},     // rows shrink, columns kept
      {{6, 8}, {1, 3}, {1, 1}, {0, 2, 0, 0}, {1, 1}},     // uneven: all padding before
      {{5, 7}, {3, 3}, {1, 1}, {3, 1, 3, 1}, {1, 1}},     // padding beyond the kernel: empty rows
      {{13}, {5}, {1}, {2, 2}, {1}},                      // 1-D
      {{4, 5, 6}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1}},  // 3-D
      {{9, 11}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}},    // strided: the run-by-run path
      {{9, 11}, {3, 3}, {1, 1}, {0, 0, 0, 0}, {1, 1}},    // unpadded: the run-by-run path
  };
  for (const Case& c : cases) {
    const int64_t N = 3, C = 2, O = 3;
    ConvOperands ops = convOperands(c.in, c.kernel, c.stride, c.padding, c.dilation, N, C, O, 1);
    const std::vector<int64_t>& out = ops.out;
    Tensor &x = ops.x, &w = ops.w, &g = ops.g;
    const Shape &xs = x.type.shape, &ws = w.type.shape;
    const std::vector<std::pair<std::string, Attr>> window{
        {"stride", intList(c.stride)}, {"padding", intList(c.padding)}, {"dilation", intList(c.dilation)}};
    auto withShape = [&](const Shape& shape) {
      auto a = window;
      a.emplace_back("shape", intList(shape));
      return a;
    };
    const Tensor y = runOpWith(OpCode::Conv, {&x, &w}, {g.type}, window)[0];
    const Tensor dw = runOpWith(OpCode::ConvGradWeight, {&x, &g}, {w.type}, withShape(ws))[0];
    const Tensor dx = runOpWith(OpCode::ConvGradInput, {&g, &w}, {x.type}, withShape(xs))[0];
    const ConvSums ref = convSums(x, w, g, N, C, O, 1, window3(c.in, out, c.kernel, c.stride, c.padding, c.dilation));
    auto near = [&](const Tensor& t, const std::vector<LD>& ref, const char* what) {
      for (size_t i = 0; i < ref.size(); ++i)
        ASSERT_NEAR(static_cast<double>(t.get(static_cast<int64_t>(i))), static_cast<double>(ref[i]), 1e-4)
            << what << " element " << i << " of the case with input " << ::testing::PrintToString(c.in);
    };
    near(y, ref.y, "conv");
    near(dw, ref.dw, "conv_grad_weight");
    near(dx, ref.dx, "conv_grad_input");
  }
}
}  // namespace
}  // namespace pir::vm

namespace pir::vm {
namespace {

// conv and its two gradients on the direct path (vm/conv_direct.h) against long double
// sums, with the same bytes at 1, 2 and 3 kernel threads: output rows that fill their
// vectors and rows that end inside one, strides 2 and 3 (the phase-split rows), a
// dilation, uneven padding and padding beyond the kernel, 1-D and 3-D, groups. A
// second pass puts an infinity into one input cell: it reaches the outputs (and the
// weight gradient's cells) whose windows read it and nothing else, although the
// kernels compute whole vectors past the end of the rows.
TEST(Numerics, DirectConvolutionsMatchSumsOnAnyThreadCount) {
  struct Case {
    std::vector<int64_t> in, kernel, stride, padding, dilation;
    int64_t channels, outChannels, groups;
  };
  const std::vector<Case> cases = {
      {{32, 32}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 16, 16, 1},     // the residual net's block
      {{32, 32}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 4, 8, 1},       // stride 2
      {{28, 28}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1, 8, 1},       // rows of 28 in vectors of 32
      {{14, 13}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 3, 5, 1},       // rows of 13
      {{20, 16}, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}, 2, 3, 1},       // dilated
      {{10, 15}, {3, 3}, {1, 1}, {0, 2, 1, 0}, {1, 1}, 2, 3, 1},       // uneven padding
      {{6, 12}, {3, 3}, {1, 1}, {3, 1, 3, 1}, {1, 1}, 2, 2, 1},        // padding beyond the kernel
      {{9, 48}, {1, 4}, {1, 3}, {0, 0, 0, 0}, {1, 1}, 2, 3, 1},        // stride 3 along the rows
      {{40}, {5}, {1}, {2, 2}, {1}, 3, 4, 1},                          // 1-D
      {{4, 5, 14}, {3, 3, 3}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 1, 1}, 2, 3, 1},  // 3-D
      {{16, 16}, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 4, 6, 2},       // 2 groups
  };
  for (const Case& c : cases)
    for (const bool withInfinity : {false, true})
    for (const int64_t N : {int64_t{5}, int64_t{1}}) {  // a batch of one splits its output rows
      const int64_t C = c.channels, O = c.outChannels, G = c.groups, cg = C / G, og = O / G;
      ConvOperands ops = convOperands(c.in, c.kernel, c.stride, c.padding, c.dilation, N, C, O, G);
      const std::vector<int64_t>& out = ops.out;
      Tensor &x = ops.x, &w = ops.w, &g = ops.g;
      const Shape &xs = x.type.shape, &ws = w.type.shape;
      // At the end of a row: the vectors computed past an output row's end read it.
      const int64_t rowLength = c.in.back();
      if (withInfinity) x.set(x.size() / 2 / rowLength * rowLength + rowLength - 1, std::numeric_limits<LD>::infinity());
      // The direct kernels serve these shapes (so this test covers them).
      const ConvWindow3 win = window3(c.in, out, c.kernel, c.stride, c.padding, c.dilation);
      detail::DirectConvShape shape;
      shape.win.in = win.in, shape.win.out = win.out, shape.win.kernel = win.kernel, shape.win.stride = win.stride;
      shape.win.dilation = win.dilation, shape.win.padBegin = win.padBegin;
      shape.batch = N, shape.groups = G, shape.inPerGroup = cg, shape.outPerGroup = og;
      ASSERT_TRUE(detail::directConvServes(shape)) << ::testing::PrintToString(c.in);
      ASSERT_TRUE(detail::directConvGradInputServes(shape)) << ::testing::PrintToString(c.in);

      std::vector<std::pair<std::string, Attr>> window{
          {"stride", intList(c.stride)}, {"padding", intList(c.padding)}, {"dilation", intList(c.dilation)},
          {"groups", Attr::integer(G)}};
      auto withShape = [&](const Shape& sh) {
        auto a = window;
        a.emplace_back("shape", intList(sh));
        return a;
      };
      auto all = [&] {
        return std::vector<Tensor>{runOpWith(OpCode::Conv, {&x, &w}, {g.type}, window)[0],
                                   runOpWith(OpCode::ConvGradWeight, {&x, &g}, {w.type}, withShape(ws))[0],
                                   runOpWith(OpCode::ConvGradInput, {&g, &w}, {x.type}, withShape(xs))[0]};
      };
      const int before = simd::kernelThreads();
      simd::setKernelThreads(1);
      const std::vector<Tensor> one = all();
      for (int threads : {2, 3}) {
        simd::setKernelThreads(threads);
        const std::vector<Tensor> more = all();
        for (size_t r = 0; r < one.size(); ++r)
          EXPECT_EQ(one[r].bytes, more[r].bytes) << "result " << r << " at " << threads << " threads, input "
                                                 << ::testing::PrintToString(c.in);
      }
      simd::setKernelThreads(before);

      // Long double sums (an infinity makes +-inf or NaN where it is read).
      const ConvSums ref = convSums(x, w, g, N, C, O, G, win);
      auto near = [&](const Tensor& t, const std::vector<LD>& ref, const char* what) {
        for (size_t i = 0; i < ref.size(); ++i) {
          const double got = static_cast<double>(t.get(static_cast<int64_t>(i))), want = static_cast<double>(ref[i]);
          if (std::isnan(want) || std::isinf(want))
            ASSERT_TRUE(std::isnan(want) ? std::isnan(got) : got == want)
                << what << " element " << i << " is " << got << ", not " << want;
          else
            ASSERT_NEAR(got, want, 1e-4 * std::max(1.0, std::abs(want)))
                << what << " element " << i << " of the case with input " << ::testing::PrintToString(c.in)
                << (withInfinity ? " and an infinity" : "");
        }
      };
      near(one[0], ref.y, "conv");
      near(one[1], ref.dw, "conv_grad_weight");
      near(one[2], ref.dx, "conv_grad_input");
    }
}

// The direct path (f32) against im2col (f64 takes it) over 300 random 2-D windows:
// strides 1-3, dilations 1-3, kernels 1-5, paddings 0-4 on each side (some beyond
// the kernel's reach, so that the input gradient's phases start before g), groups,
// rows of 12-40 outputs. Every case the direct kernels serve must agree within f32
// rounding; most of them must be served.
TEST(Numerics, DirectConvolutionsAgreeWithIm2colOverRandomWindows) {
  uint64_t seed = 12345;
  auto next = [&](int64_t lo, int64_t hi) {  // uniform in [lo, hi]
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(hi - lo + 1));
  };
  int served = 0, gradServed = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t groups = next(1, 2), cg = next(1, 3), og = next(1, 4), N = next(1, 3);
    std::vector<int64_t> kernel{next(1, 5), next(1, 5)}, stride{next(1, 3), next(1, 3)}, dilation{next(1, 3), next(1, 3)};
    std::vector<int64_t> padding{next(0, 4), next(0, 4), next(0, 4), next(0, 4)};
    const int64_t outW = next(12, 40), outH = next(1, 6);
    // Input sizes giving those outputs (the last stride's remainder taken at random).
    std::vector<int64_t> in(2), out{outH, outW};
    bool fits = true;
    for (int d = 0; d < 2; ++d) {
      in[static_cast<size_t>(d)] = (out[static_cast<size_t>(d)] - 1) * stride[static_cast<size_t>(d)] +
                                   dilation[static_cast<size_t>(d)] * (kernel[static_cast<size_t>(d)] - 1) + 1 -
                                   padding[static_cast<size_t>(d)] - padding[static_cast<size_t>(2 + d)] +
                                   next(0, stride[static_cast<size_t>(d)] - 1);
      fits = fits && in[static_cast<size_t>(d)] >= 1;
    }
    if (!fits) continue;
    const Shape xs{N, groups * cg, in[0], in[1]}, ws{groups * og, cg, kernel[0], kernel[1]},
        ys{N, groups * og, out[0], out[1]};
    detail::DirectConvShape shape;
    shape.win.in = {1, in[0], in[1]}, shape.win.out = {1, out[0], out[1]}, shape.win.kernel = {1, kernel[0], kernel[1]};
    shape.win.stride = {1, stride[0], stride[1]}, shape.win.dilation = {1, dilation[0], dilation[1]};
    shape.win.padBegin = {0, padding[0], padding[1]};
    shape.batch = N, shape.groups = groups, shape.inPerGroup = cg, shape.outPerGroup = og;
    const bool direct = detail::directConvServes(shape), directGrad = detail::directConvGradInputServes(shape);
    served += direct;
    gradServed += directGrad;
    const std::vector<std::pair<std::string, Attr>> window{{"stride", intList(stride)}, {"padding", intList(padding)},
                                                           {"dilation", intList(dilation)}, {"groups", Attr::integer(groups)}};
    auto withShape = [&](const Shape& sh) {
      auto a = window;
      a.emplace_back("shape", intList(sh));
      return a;
    };
    std::vector<Tensor> results[2];
    for (DType dt : {DType::F32, DType::F64}) {
      Tensor x(dt, xs), w(dt, ws), g(dt, ys);
      for (int64_t i = 0; i < x.size(); ++i) x.set(i, std::sin(i * 0.37 + trial));
      for (int64_t i = 0; i < w.size(); ++i) w.set(i, std::cos(i * 0.61 + trial));
      for (int64_t i = 0; i < g.size(); ++i) g.set(i, std::sin(i * 0.23 + 1 + trial));
      results[dt == DType::F64] = {runOpWith(OpCode::Conv, {&x, &w}, {g.type}, window)[0],
                                   runOpWith(OpCode::ConvGradWeight, {&x, &g}, {w.type}, withShape(ws))[0],
                                   runOpWith(OpCode::ConvGradInput, {&g, &w}, {x.type}, withShape(xs))[0]};
    }
    const char* names[3] = {"conv", "conv_grad_weight", "conv_grad_input"};
    for (int r = 0; r < 3; ++r) {
      // Sums of up to a few hundred terms of magnitude <= 1.
      const double tolerance = 2e-4 * (r == 1 ? static_cast<double>(N * out[0] * out[1]) / 16 + 1 : 1);
      for (int64_t i = 0; i < results[0][static_cast<size_t>(r)].size(); ++i)
        ASSERT_NEAR(static_cast<double>(results[0][static_cast<size_t>(r)].get(i)),
                    static_cast<double>(results[1][static_cast<size_t>(r)].get(i)), tolerance)
            << names[r] << " element " << i << " of trial " << trial << ": in " << ::testing::PrintToString(in)
            << " kernel " << ::testing::PrintToString(kernel) << " stride " << ::testing::PrintToString(stride)
            << " dilation " << ::testing::PrintToString(dilation) << " padding " << ::testing::PrintToString(padding)
            << " groups " << groups << (direct ? " (direct)" : " (im2col)") << (directGrad ? " (direct dx)" : "");
    }
  }
  EXPECT_GE(served, 150);
  EXPECT_GE(gradServed, 100);
}

// The result tensors of conv, conv_grad_weight and conv_grad_input of `ops` with the
// window attributes `window`, at `threads` kernel threads.
std::vector<Tensor> convAndGradients(ConvOperands& ops, const std::vector<std::pair<std::string, Attr>>& window,
                                     int threads) {
  const int before = simd::kernelThreads();
  simd::setKernelThreads(threads);
  auto withShape = [&](const Shape& sh) {
    auto a = window;
    a.emplace_back("shape", intList(sh));
    return a;
  };
  std::vector<Tensor> r{runOpWith(OpCode::Conv, {&ops.x, &ops.w}, {ops.g.type}, window)[0],
                        runOpWith(OpCode::ConvGradWeight, {&ops.x, &ops.g}, {ops.w.type}, withShape(ops.w.type.shape))[0],
                        runOpWith(OpCode::ConvGradInput, {&ops.g, &ops.w}, {ops.x.type}, withShape(ops.x.type.shape))[0]};
  simd::setKernelThreads(before);
  return r;
}

// Depthwise convolutions (groups = channels, one input and one output channel per
// group; the weight gradient in vm/conv_depthwise.h, conv and dx on the direct
// kernels with one channel) over 120 random windows: 1-D, 2-D and 3-D, strides 1-3,
// dilations 1-3, paddings 0-3 on each side, odd widths, batches of 1-4, against long
// double sums, with the same bytes at 1, 2 and 3 kernel threads. Every third case
// puts an infinity at the end of an input row: it reaches the outputs and the weight
// gradient's cells that read it and nothing else, although the kernels compute whole
// vectors past the rows' ends.
TEST(Numerics, DepthwiseConvolutionsMatchSumsOnAnyThreadCount) {
  uint64_t seed = 2024;
  auto next = [&](int64_t lo, int64_t hi) {  // uniform in [lo, hi]
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(hi - lo + 1));
  };
  int served = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const size_t rank = static_cast<size_t>(next(1, 3));
    const int64_t C = next(1, 7), N = next(1, 4);
    std::vector<int64_t> in(rank), kernel(rank), stride(rank), dilation(rank), padding(2 * rank);
    for (size_t d = 0; d < rank; ++d) {
      const bool last = d + 1 == rank;
      kernel[d] = next(1, rank == 3 ? 3 : 5), stride[d] = next(1, 3), dilation[d] = next(1, 3);
      padding[d] = next(0, 3), padding[rank + d] = next(0, 3);
      // Rows of 12-70 outputs (those of 12-15 and 29-31 left to im2col: rows that fill
      // too little of their vectors), a few rows along the other axes.
      const int64_t out = last ? next(12, 70) : next(1, rank == 3 ? 4 : 9);
      in[d] = std::max<int64_t>(1, (out - 1) * stride[d] + dilation[d] * (kernel[d] - 1) + 1 - padding[d] -
                                        padding[rank + d] + next(0, stride[d] - 1));
    }
    bool fits = true;  // an input of 1 (the least) may still be too short for the window
    for (size_t d = 0; d < rank; ++d)
      fits = fits && in[d] + padding[d] + padding[rank + d] >= dilation[d] * (kernel[d] - 1) + 1;
    if (!fits) continue;
    ConvOperands ops = convOperands(in, kernel, stride, padding, dilation, N, C, C, C);
    const ConvWindow3 win = window3(in, ops.out, kernel, stride, padding, dilation);
    detail::DirectConvShape shape;
    shape.win.in = win.in, shape.win.out = win.out, shape.win.kernel = win.kernel, shape.win.stride = win.stride;
    shape.win.dilation = win.dilation, shape.win.padBegin = win.padBegin;
    shape.batch = N, shape.groups = C, shape.inPerGroup = 1, shape.outPerGroup = 1;
    const bool depthwise = detail::depthwiseConvGradWeightServes(shape);
    served += depthwise;
    const bool withInfinity = trial % 3 == 2;
    if (withInfinity) {
      const int64_t rowLength = in.back();
      ops.x.set(ops.x.size() / 2 / rowLength * rowLength + rowLength - 1, std::numeric_limits<LD>::infinity());
    }
    const std::vector<std::pair<std::string, Attr>> window{{"stride", intList(stride)}, {"padding", intList(padding)},
                                                           {"dilation", intList(dilation)}, {"groups", Attr::integer(C)}};
    const std::vector<Tensor> one = convAndGradients(ops, window, 1);
    for (int threads : {2, 3}) {
      const std::vector<Tensor> more = convAndGradients(ops, window, threads);
      for (size_t r = 0; r < one.size(); ++r)
        ASSERT_EQ(one[r].bytes, more[r].bytes) << "result " << r << " of trial " << trial << " at " << threads << " threads";
    }
    const ConvSums ref = convSums(ops.x, ops.w, ops.g, N, C, C, C, win);
    const char* names[3] = {"conv", "conv_grad_weight", "conv_grad_input"};
    const std::vector<LD>* refs[3] = {&ref.y, &ref.dw, &ref.dx};
    for (int r = 0; r < 3; ++r)
      for (size_t i = 0; i < refs[r]->size(); ++i) {
        const double got = static_cast<double>(one[static_cast<size_t>(r)].get(static_cast<int64_t>(i)));
        const double want = static_cast<double>((*refs[r])[i]);
        if (std::isnan(want) || std::isinf(want)) {
          ASSERT_TRUE(std::isnan(want) ? std::isnan(got) : got == want)
              << names[r] << " element " << i << " of trial " << trial << " is " << got << ", not " << want;
          continue;
        }
        // The weight gradient sums up to a few thousand terms of magnitude <= 1.25.
        const double tolerance = 1e-4 * std::max(1.0, std::abs(want)) * (r == 1 ? 8 : 1);
        ASSERT_NEAR(got, want, tolerance) << names[r] << " element " << i << " of trial " << trial << ": in "
                                          << ::testing::PrintToString(in) << " kernel " << ::testing::PrintToString(kernel)
                                          << " stride " << ::testing::PrintToString(stride) << " dilation "
                                          << ::testing::PrintToString(dilation) << " padding "
                                          << ::testing::PrintToString(padding) << " batch " << N << " channels " << C
                                          << (depthwise ? " (depthwise)" : " (im2col)");
      }
  }
  EXPECT_GE(served, 60);
}

// A weight gradient wider than conv's direct bound (a group's 16K weights) and within
// its own (64K): a 1-D conv of 64 to 64 channels, kernel 5, whose conv runs im2col and
// whose weight gradient runs direct, against long double sums, with the same bytes at
// 1, 2 and 3 kernel threads.
TEST(Numerics, WideDirectWeightGradientsMatchSumsOnAnyThreadCount) {
  for (const int64_t N : {int64_t{1}, int64_t{6}}) {
    const int64_t C = 64, O = 64;
    ConvOperands ops = convOperands({45}, {5}, {1}, {2, 2}, {1}, N, C, O, 1);
    const ConvWindow3 win = window3({45}, ops.out, {5}, {1}, {2, 2}, {1});
    detail::DirectConvShape shape;
    shape.win.in = win.in, shape.win.out = win.out, shape.win.kernel = win.kernel, shape.win.stride = win.stride;
    shape.win.dilation = win.dilation, shape.win.padBegin = win.padBegin;
    shape.batch = N, shape.groups = 1, shape.inPerGroup = C, shape.outPerGroup = O;
    ASSERT_FALSE(detail::directConvServes(shape));
    ASSERT_TRUE(detail::directConvGradWeightServes(shape));
    const std::vector<std::pair<std::string, Attr>> window{{"padding", intList({2, 2})}};
    const std::vector<Tensor> one = convAndGradients(ops, window, 1);
    for (int threads : {2, 3})
      EXPECT_EQ(one[1].bytes, convAndGradients(ops, window, threads)[1].bytes) << "batch " << N << ", " << threads << " threads";
    const ConvSums ref = convSums(ops.x, ops.w, ops.g, N, C, O, 1, win);
    for (size_t i = 0; i < ref.dw.size(); ++i) {
      const double want = static_cast<double>(ref.dw[i]);
      ASSERT_NEAR(static_cast<double>(one[1].get(static_cast<int64_t>(i))), want, 1e-4 * std::max(1.0, std::abs(want)))
          << "conv_grad_weight element " << i << " of batch " << N;
    }
  }
}

// l2 of rows [7, 0, ...] is exactly 7 for every output position (a vectorised
// approximate sqrt gave 7.0000005 for some positions).
TEST(Numerics, L2IsCorrectlyRoundedAtEveryPosition) {
  for (int64_t rows = 1; rows <= 40; ++rows) {
    Tensor x(DType::F32, {rows, 3});
    for (int64_t r = 0; r < rows; ++r) {
      x.set(r * 3, 7);
      x.set(r * 3 + 1, 0);
      x.set(r * 3 + 2, 0);
    }
    const Tensor y = runOpWith(OpCode::L2, {&x}, {{DType::F32, {rows}}}, {{"axis", Attr::integer(1)}})[0];
    for (int64_t r = 0; r < rows; ++r) EXPECT_EQ(static_cast<float>(y.get(r)), 7.0f) << r << " of " << rows;
  }
}

}  // namespace
}  // namespace pir::vm
