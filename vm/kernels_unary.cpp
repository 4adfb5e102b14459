// Elementwise unary kernels (ops.def family Unary, incl. the in-place `_`
// variants and clip), cast and the plain copies (Copy family).
//
// Float math runs through the per-ISA loops of vm/simd_kernels.h (exp, log,
// tanh, sigmoid, swish, gelu, sqrt, ...: the same function for every element,
// ~1 ulp), or a scalar loop of the C library (log2, sin, cos, erf, softplus),
// or an Eigen expression for the exact ops (sign, ceil, floor, round, clip).
// Integer kernels are Eigen expressions. In-place variants are the same kernel:
// every loop is alias-safe element by element.
// Integer abs/neg wrap (abs(INT_MIN) == INT_MIN), computed in unsigned to stay
// clear of signed-overflow UB. f16 computes in f32 and rounds once.
#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm::detail {
namespace {

enum class Un : uint8_t {
  Abs, Neg, Sign, Exp, Log, Log2, Sqrt, Rsqrt, Reciprocal, Square, Sin, Cos, Tanh, Sigmoid, Relu,
  Gelu, GeluErf, Erf, Swish, Softplus, Ceil, Floor, Round, IsNan, IsInf, IsFinite, LogicalNot, Clip,
};

std::optional<Un> unaryOf(OpCode c) {
  switch (c) {
    case OpCode::Abs: case OpCode::AbsInplace: return Un::Abs;
    case OpCode::Neg: case OpCode::NegInplace: return Un::Neg;
    case OpCode::Sign: return Un::Sign;
    case OpCode::Exp: case OpCode::ExpInplace: return Un::Exp;
    case OpCode::Log: case OpCode::LogInplace: return Un::Log;
    case OpCode::Log2: return Un::Log2;
    case OpCode::Sqrt: case OpCode::SqrtInplace: return Un::Sqrt;
    case OpCode::Rsqrt: return Un::Rsqrt;
    case OpCode::Reciprocal: return Un::Reciprocal;
    case OpCode::Square: return Un::Square;
    case OpCode::Sin: return Un::Sin;
    case OpCode::Cos: return Un::Cos;
    case OpCode::Tanh: case OpCode::TanhInplace: return Un::Tanh;
    case OpCode::Sigmoid: case OpCode::SigmoidInplace: return Un::Sigmoid;
    case OpCode::Relu: case OpCode::ReluInplace: return Un::Relu;
    case OpCode::Gelu: case OpCode::GeluInplace: return Un::Gelu;
    case OpCode::GeluErf: return Un::GeluErf;
    case OpCode::Erf: return Un::Erf;
    case OpCode::Swish: return Un::Swish;
    case OpCode::Softplus: return Un::Softplus;
    case OpCode::Ceil: return Un::Ceil;
    case OpCode::Floor: return Un::Floor;
    case OpCode::Round: return Un::Round;
    case OpCode::IsNan: return Un::IsNan;
    case OpCode::IsInf: return Un::IsInf;
    case OpCode::IsFinite: return Un::IsFinite;
    case OpCode::LogicalNot: return Un::LogicalNot;
    case OpCode::Clip: case OpCode::ClipInplace: return Un::Clip;
    default: return std::nullopt;
  }
}

constexpr bool isPredicate(Un u) { return u == Un::IsNan || u == Un::IsInf || u == Un::IsFinite; }

// Which element types each op accepts (the verifier's rules, enforced again so
// that a bad combination is an error, not a wrong instantiation).
template <class T> constexpr bool unarySupported(Un u) {
  if constexpr (kIsFloat<T>) return u != Un::LogicalNot;
  else if constexpr (kIsBool<T>)
    return u == Un::LogicalNot || u == Un::Abs || u == Un::Relu || u == Un::Ceil || u == Un::Floor ||
           u == Un::Round || u == Un::Clip || isPredicate(u) || u == Un::Sign;
  else
    return u == Un::Abs || u == Un::Neg || u == Un::Sign || u == Un::Relu || u == Un::Ceil || u == Un::Floor ||
           u == Un::Round || u == Un::Clip || u == Un::Square || isPredicate(u);
}

struct UnaryState {
  int64_t n;
  double lo, hi;               // clip bounds
  // The vm/simd_kernels.h loops for f32 (and f16) and f64, if any, as a generic
  // function pointer (casting between function pointer types is portable; to and
  // from void* is not).
  using AnyFn = void (*)();
  AnyFn simdF32 = nullptr;
  AnyFn simdF64 = nullptr;
};

// The vector-table entry computing U, or -1 (then the op is a scalar loop of
// the C library's correctly-rounded-or-nearly functions, or an exact op).
constexpr int simdKindOf(Un u) {
  switch (u) {
    case Un::Exp: return simd::kExp;
    case Un::Log: return simd::kLog;
    case Un::Tanh: return simd::kTanh;
    case Un::Sigmoid: return simd::kSigmoid;
    case Un::Swish: return simd::kSwish;
    case Un::Gelu: return simd::kGelu;
    case Un::Sqrt: return simd::kSqrt;
    case Un::Rsqrt: return simd::kRsqrt;
    case Un::Reciprocal: return simd::kReciprocal;
    case Un::Abs: return simd::kAbs;
    case Un::Neg: return simd::kNeg;
    case Un::Square: return simd::kSquare;
    case Un::Relu: return simd::kRelu;
    default: return -1;
  }
}

// Ops computed one element at a time with the C library (log2, sin, cos, erf,
// log1p are within 1 ulp in glibc); slow but the same for every position.
template <Un U> constexpr bool kScalarLibm =
    U == Un::Log2 || U == Un::Sin || U == Un::Cos || U == Un::GeluErf || U == Un::Erf || U == Un::Softplus;

template <Un U, class C> C libmValue(C v) {
  if constexpr (U == Un::Log2) return std::log2(v);
  else if constexpr (U == Un::Sin) return std::sin(v);
  else if constexpr (U == Un::Cos) return std::cos(v);
  else if constexpr (U == Un::GeluErf) return C(0.5) * v * (C(1) + std::erf(v * C(0.7071067811865476)));
  else if constexpr (U == Un::Erf) return std::erf(v);
  else return (v < 0 ? C(0) : v) + std::log1p(std::exp(-std::abs(v)));  // softplus without overflow
}

// clip: min(max(v, lo), hi), so that with lo > hi every element is hi (NumPy,
// PyTorch, ONNX); a NaN stays NaN.
template <class T> T clipValue(T v, T lo, T hi) {
  const T above = v < lo ? lo : v;
  return above > hi ? hi : above;
}

// The exact float ops (every element is one IEEE operation or a selection), as
// Eigen expressions of x: their vector and scalar paths agree bit for bit.
template <Un U, class X> auto floatExpr(const X& x, const UnaryState& s) {
  using T = typename X::Scalar;
  if constexpr (U == Un::Sign) return x.unaryExpr([](T v) { return v > 0 ? T(1) : v < 0 ? T(-1) : v; });
  // ceil, floor and rint keep the sign of x (IEEE), also on a zero result:
  // ceil(-0.5) = -0. Eigen's vector path may compute a zero as +0, so a zero
  // result is replaced by x * 0 (the zero of x's sign; x is finite there).
  else if constexpr (U == Un::Ceil) return (x.ceil() == T(0)).select(x * T(0), x.ceil());
  else if constexpr (U == Un::Floor) return (x.floor() == T(0)).select(x * T(0), x.floor());
  else if constexpr (U == Un::Round) return (x.rint() == T(0)).select(x * T(0), x.rint());  // half to even (NumPy, ONNX)
  else if constexpr (U == Un::Clip)
    return x.unaryExpr([lo = T(s.lo), hi = T(s.hi)](T v) { return clipValue(v, lo, hi); });
  else static_assert(U == Un::Sign, "not an exact float op");
}

// f16 through an f32 loop in chunks: compute in f32, round once.
template <class Fn> void viaF32(const Eigen::half* x, Eigen::half* y, int64_t n, Fn&& fn) {
  constexpr int64_t kChunk = 512;
  float buf[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t m = std::min(kChunk, n - i);
    for (int64_t j = 0; j < m; ++j) buf[j] = static_cast<float>(x[i + j]);
    fn(buf, m);
    for (int64_t j = 0; j < m; ++j) y[i + j] = Eigen::half(buf[j]);
  }
}

// Integer (and bool) math: wrapping, computed in uint32 where it can overflow.
template <Un U, class T> T intValue(T v, T lo, T hi) {
  if constexpr (kIsBool<T>) {
    if constexpr (U == Un::LogicalNot) return !v;
    else if constexpr (U == Un::Clip) return clipValue(v, lo, hi);
    else return v;  // abs, relu, sign, ceil, floor, round are the identity on {0, 1}
  } else if constexpr (U == Un::Abs) {
    if constexpr (std::is_signed_v<T>) return v < 0 ? T(0u - static_cast<uint32_t>(v)) : v;
    else return v;
  } else if constexpr (U == Un::Neg) {
    return T(0u - static_cast<uint32_t>(v));
  } else if constexpr (U == Un::Sign) {
    return T((v > 0) - (v < 0));
  } else if constexpr (U == Un::Relu) {
    return v > 0 ? v : T(0);
  } else if constexpr (U == Un::Square) {
    return T(static_cast<uint32_t>(v) * static_cast<uint32_t>(v));
  } else if constexpr (U == Un::Clip) {
    return clipValue(v, lo, hi);
  } else {
    return v;  // ceil, floor, round
  }
}

template <class T, Un U> void runUnary(const UnaryState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const CVecMap<T> x(ins[0].as<const T>(), s.n);
  if constexpr (isPredicate(U)) {
    VecMap<bool> y(outs[0].as<bool>(), s.n);
    if constexpr (kIsFloat<T>) {
      const auto xf = x.template cast<ComputeOf<T>>();
      if constexpr (U == Un::IsNan) y = xf.isNaN();
      else if constexpr (U == Un::IsInf) y = xf.isInf();
      else y = xf.isFinite();
    } else {
      y.setConstant(U == Un::IsFinite);
    }
  } else {
    VecMap<T> y(outs[0].as<T>(), s.n);
    if constexpr (kIsFloat<T> && simdKindOf(U) >= 0) {
      using C = ComputeOf<T>;
      const auto fn = reinterpret_cast<simd::UnaryFn<C>>(std::is_same_v<C, float> ? s.simdF32 : s.simdF64);
      if constexpr (kIsHalf<T>) viaF32(x.data(), y.data(), s.n, [fn](float* b, int64_t m) { fn(b, b, m); });
      else splitRange(s.n, [&](int64_t b, int64_t e) { fn(x.data() + b, y.data() + b, e - b); });
    } else if constexpr (kIsFloat<T> && kScalarLibm<U>) {
      using C = ComputeOf<T>;
      if constexpr (kIsHalf<T>)
        viaF32(x.data(), y.data(), s.n, [](float* b, int64_t m) {
          for (int64_t j = 0; j < m; ++j) b[j] = libmValue<U>(b[j]);
        });
      else
        for (int64_t i = 0; i < s.n; ++i) y[i] = libmValue<U, C>(x[i]);
    } else if constexpr (kIsHalf<T>) {
      y = floatExpr<U>(x.template cast<float>(), s).template cast<Eigen::half>();
    } else if constexpr (kIsFloat<T>) {
      y = floatExpr<U>(x, s);
    } else {
      const T lo = convertValue<T>(std::ceil(s.lo)), hi = convertValue<T>(std::floor(s.hi));
      y = x.unaryExpr([lo, hi](T v) { return intValue<U, T>(v, lo, hi); });
    }
  }
}

template <class T> PreparedKernel selectUnary(Un u, const UnaryState& s) {
  switch (u) {
#define PIR_UN(name) \
  case Un::name:     \
    if constexpr (unarySupported<T>(Un::name)) return makeKernel<UnaryState, runUnary<T, Un::name>>(s); \
    break;
    PIR_UN(Abs) PIR_UN(Neg) PIR_UN(Sign) PIR_UN(Exp) PIR_UN(Log) PIR_UN(Log2) PIR_UN(Sqrt) PIR_UN(Rsqrt)
    PIR_UN(Reciprocal) PIR_UN(Square) PIR_UN(Sin) PIR_UN(Cos) PIR_UN(Tanh) PIR_UN(Sigmoid) PIR_UN(Relu)
    PIR_UN(Gelu) PIR_UN(GeluErf) PIR_UN(Erf) PIR_UN(Swish) PIR_UN(Softplus) PIR_UN(Ceil) PIR_UN(Floor) PIR_UN(Round)
    PIR_UN(IsNan) PIR_UN(IsInf) PIR_UN(IsFinite) PIR_UN(LogicalNot) PIR_UN(Clip)
#undef PIR_UN
  }
  return {};
}

// ---- cast ---------------------------------------------------------------------

struct SizeState {
  int64_t n;
  int64_t bytes;
};

// Plain loops over convertValue (Eigen's unaryExpr over bool does not vectorise,
// and ran bool -> f32, the relu gradient's mask, at ~2 ns an element).
template <class From, class To> void runCast(const SizeState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  To* __restrict y = outs[0].as<To>();
  if constexpr (kIsBool<From> && !kIsHalf<To> && !kIsBool<To>) {
    const auto* __restrict b = reinterpret_cast<const uint8_t*>(ins[0].as<const From>());
    for (int64_t i = 0; i < s.n; ++i) y[i] = static_cast<To>(b[i] != 0);
  } else {
    const From* __restrict x = ins[0].as<const From>();
    for (int64_t i = 0; i < s.n; ++i) y[i] = convertValue<To, From>(x[i]);
  }
}

void runCopy(const SizeState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  if (outs[0].data != ins[0].data && s.bytes > 0) copyBytes(outs[0].data, ins[0].data, static_cast<size_t>(s.bytes));
}

}  // namespace

PreparedKernel prepareUnary(const Op& op, InTypes in, InTypes out) {
  const std::optional<Un> u = unaryOf(op.code);
  if (!u || in.empty() || out.empty()) throw KernelError("'" + std::string(op.info().name) + "' is not a unary op");
  if (out[0].numElements() != in[0].numElements()) throw KernelError("result " + out[0].str() + " does not match " + in[0].str());
  UnaryState s{in[0].numElements(), -INFINITY, INFINITY};  // unbounded but for clip
  if (op.code == OpCode::Clip || op.code == OpCode::ClipInplace) {
    const attrs::View<attrs::ops(OpCode::Clip, OpCode::ClipInplace)> clip{op};
    s.lo = clip.min();
    s.hi = clip.max();
  }
  if (const int k = simdKindOf(*u); k >= 0) {
    s.simdF32 = reinterpret_cast<UnaryState::AnyFn>(simd::table().f32.unary[k]);
    s.simdF64 = reinterpret_cast<UnaryState::AnyFn>(simd::table().f64.unary[k]);
  }
  PreparedKernel k = dispatchDType(in[0].dtype, [&]<class T>() { return selectUnary<T>(*u, s); });
  if (!k.fn) unsupported(op, in[0]);
  return k;
}

PreparedKernel prepareCast(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || out.empty() || out[0].numElements() != in[0].numElements())
    throw KernelError("cast: result does not match the operand");
  const SizeState s{in[0].numElements(), 0};
  const DType to = out[0].dtype;
  return dispatchDType(in[0].dtype, [&]<class From>() {
    return dispatchDType(to, [&]<class To>() { return makeKernel<SizeState, runCast<From, To>>(s); });
  });
}

PreparedKernel prepareCopy(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || out.empty() || in[0].dtype != out[0].dtype || in[0].numElements() != out[0].numElements())
    throw KernelError("'" + std::string(op.info().name) + "': copy between mismatched types");
  return makeKernel<SizeState, runCopy>(SizeState{in[0].numElements(), in[0].numElements() * dtypeSize(in[0].dtype)});
}

}  // namespace pir::vm::detail
