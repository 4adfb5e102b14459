// Elementwise unary kernels (ops.def family Unary, incl. the in-place `_`
// variants and clip), cast and the plain copies (Copy family).
//
// Each op's element function is a member of UnaryFunctions, named by its row
// (`Unary(Exp)`): float math through the per-ISA loops of vm/simd_kernels.h,
// a scalar loop of the C library, or an Eigen expression for the exact ops;
// integer kernels are Eigen expressions. In-place variants are the same kernel:
// every loop is alias-safe element by element.
// Integer abs/neg wrap (abs(INT_MIN) == INT_MIN), computed in unsigned to stay
// clear of signed-overflow UB. f16 computes in f32 and rounds once.
#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm::detail {
namespace {

// clip: min(max(v, lo), hi), so that with lo > hi every element is hi (NumPy,
// PyTorch, ONNX); a NaN stays NaN.
template <class T> T clipValue(T v, T lo, T hi) {
  const T above = v < lo ? lo : v;
  return above > hi ? hi : above;
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

// The element functions of the Unary rows of ops.def (`Unary(Fn)`), one struct
// each. A function states the element types it accepts (kAccepts) and its
// float math as exactly one of:
//   kSimd      the vm/simd_kernels.h vector-table entry (~1 ulp, or exact for
//              floor, ceil and round; the same function for every element);
//   exact(x,s) an Eigen expression of x for the exact ops (every element one
//              IEEE operation or a selection): vector and scalar paths agree;
//   test(x)    a predicate (the result is bool); kIntegerResult on integers;
// and its integer (and bool) math as integer(v, lo, hi): wrapping, computed in
// uint32 where it can overflow (bool: the value on {0, 1}).
struct UnaryFunctions {
  static constexpr std::string_view family = "Unary";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);

  struct Base {
    static constexpr int kSimd = -1;
    static constexpr ElementTypes kAccepts = kFloats;
  };
  struct Abs : Base {
    static constexpr int kSimd = simd::kAbs;
    static constexpr ElementTypes kAccepts = kAll;
    template <class T> static T integer(T v, T, T) {
      if constexpr (std::is_signed_v<T>) return v < 0 ? T(0u - static_cast<uint32_t>(v)) : v;
      else return v;
    }
  };
  struct Neg : Base {
    static constexpr int kSimd = simd::kNeg;
    static constexpr ElementTypes kAccepts = kNumbers;
    template <class T> static T integer(T v, T, T) { return T(0u - static_cast<uint32_t>(v)); }
  };
  struct Sign : Base {
    static constexpr ElementTypes kAccepts = kAll;
    template <class X> static auto exact(const X& x, const UnaryState&) {
      using T = typename X::Scalar;
      return x.unaryExpr([](T v) { return v > 0 ? T(1) : v < 0 ? T(-1) : v; });
    }
    template <class T> static T integer(T v, T, T) {
      if constexpr (kIsBool<T>) return v;
      else return T((v > 0) - (v < 0));
    }
  };
  struct Exp : Base { static constexpr int kSimd = simd::kExp; };
  struct Log : Base { static constexpr int kSimd = simd::kLog; };
  struct Log2 : Base { static constexpr int kSimd = simd::kLog2; };
  struct Sqrt : Base { static constexpr int kSimd = simd::kSqrt; };
  struct Rsqrt : Base { static constexpr int kSimd = simd::kRsqrt; };
  struct Reciprocal : Base { static constexpr int kSimd = simd::kReciprocal; };
  struct Square : Base {
    static constexpr int kSimd = simd::kSquare;
    static constexpr ElementTypes kAccepts = kNumbers;
    template <class T> static T integer(T v, T, T) { return T(static_cast<uint32_t>(v) * static_cast<uint32_t>(v)); }
  };
  struct Sin : Base { static constexpr int kSimd = simd::kSin; };
  struct Cos : Base { static constexpr int kSimd = simd::kCos; };
  struct Tanh : Base { static constexpr int kSimd = simd::kTanh; };
  struct Sigmoid : Base { static constexpr int kSimd = simd::kSigmoid; };
  struct Relu : Base {
    static constexpr int kSimd = simd::kRelu;
    static constexpr ElementTypes kAccepts = kAll;
    template <class T> static T integer(T v, T, T) { return v > 0 ? v : T(0); }
  };
  struct Gelu : Base { static constexpr int kSimd = simd::kGelu; };
  struct GeluErf : Base { static constexpr int kSimd = simd::kGeluErf; };
  struct Erf : Base { static constexpr int kSimd = simd::kErf; };
  struct Swish : Base { static constexpr int kSimd = simd::kSwish; };
  struct Softplus : Base { static constexpr int kSimd = simd::kSoftplus; };
  // ceil, floor and rint (half to even: NumPy, ONNX) keep the sign of x (IEEE), also
  // on a zero result: ceil(-0.5) = -0. Exact; on integers they are the identity.
  struct Ceil : Base {
    static constexpr int kSimd = simd::kCeil;
    static constexpr ElementTypes kAccepts = kAll;
    template <class T> static T integer(T v, T, T) { return v; }
  };
  struct Floor : Base {
    static constexpr int kSimd = simd::kFloor;
    static constexpr ElementTypes kAccepts = kAll;
    template <class T> static T integer(T v, T, T) { return v; }
  };
  struct Round : Base {
    static constexpr int kSimd = simd::kRound;
    static constexpr ElementTypes kAccepts = kAll;
    template <class T> static T integer(T v, T, T) { return v; }
  };
  struct IsNan : Base {
    static constexpr ElementTypes kAccepts = kAll;
    static constexpr bool kIntegerResult = false;
    template <class X> static auto test(const X& x) { return x.isNaN(); }
  };
  struct IsInf : Base {
    static constexpr ElementTypes kAccepts = kAll;
    static constexpr bool kIntegerResult = false;
    template <class X> static auto test(const X& x) { return x.isInf(); }
  };
  struct IsFinite : Base {
    static constexpr ElementTypes kAccepts = kAll;
    static constexpr bool kIntegerResult = true;
    template <class X> static auto test(const X& x) { return x.isFinite(); }
  };
  struct LogicalNot : Base {
    static constexpr ElementTypes kAccepts = kBools;
    template <class T> static T integer(T v, T, T) { return !v; }
  };
  struct Clip : Base {  // bounds from the attributes (UnaryState::lo, hi)
    static constexpr ElementTypes kAccepts = kAll;
    template <class X> static auto exact(const X& x, const UnaryState& s) {
      using T = typename X::Scalar;
      return x.unaryExpr([lo = T(s.lo), hi = T(s.hi)](T v) { return clipValue(v, lo, hi); });
    }
    template <class T> static T integer(T v, T lo, T hi) { return clipValue(v, lo, hi); }
  };
};

template <class Fn> constexpr bool kPredicate = requires { Fn::kIntegerResult; };

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

template <class T, class U> void runUnary(const UnaryState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const CVecMap<T> x(ins[0].as<const T>(), s.n);
  if constexpr (kPredicate<U>) {
    VecMap<bool> y(outs[0].as<bool>(), s.n);
    if constexpr (kIsFloat<T>) y = U::test(x.template cast<ComputeOf<T>>());
    else y.setConstant(U::kIntegerResult);
  } else {
    VecMap<T> y(outs[0].as<T>(), s.n);
    if constexpr (kIsFloat<T> && U::kSimd >= 0) {
      using C = ComputeOf<T>;
      const auto fn = reinterpret_cast<simd::UnaryFn<C>>(std::is_same_v<C, float> ? s.simdF32 : s.simdF64);
      if constexpr (kIsHalf<T>) viaF32(x.data(), y.data(), s.n, [fn](float* b, int64_t m) { fn(b, b, m); });
      else splitRange(s.n, [&](int64_t b, int64_t e) { fn(x.data() + b, y.data() + b, e - b); });
    } else if constexpr (kIsHalf<T>) {
      y = U::exact(x.template cast<float>(), s).template cast<Eigen::half>();
    } else if constexpr (kIsFloat<T>) {
      y = U::exact(x, s);
    } else {
      const T lo = convertValue<T>(std::ceil(s.lo)), hi = convertValue<T>(std::floor(s.hi));
      y = x.unaryExpr([lo, hi](T v) { return U::template integer<T>(v, lo, hi); });
    }
  }
}

template <class Fn> PreparedKernel UnaryFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if (in.empty() || out.empty()) throw KernelError("'" + std::string(op.info().name) + "' is not a unary op");
  if (out[0].numElements() != in[0].numElements()) throw KernelError("result " + out[0].str() + " does not match " + in[0].str());
  UnaryState s{in[0].numElements(), -INFINITY, INFINITY};  // unbounded but for clip
  if constexpr (std::is_same_v<Fn, Clip>) {
    const attrs::View<attrs::ops(OpCode::Clip, OpCode::ClipInplace)> clip{op};
    s.lo = clip.min();
    s.hi = clip.max();
  }
  if constexpr (Fn::kSimd >= 0) {
    s.simdF32 = reinterpret_cast<UnaryState::AnyFn>(simd::table().f32.unary[Fn::kSimd]);
    s.simdF64 = reinterpret_cast<UnaryState::AnyFn>(simd::table().f64.unary[Fn::kSimd]);
  }
  PreparedKernel k = dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (accepts<T>(Fn::kAccepts)) {
      PreparedKernel prepared = makeKernel<UnaryState, runUnary<T, Fn>>(s);
      if constexpr (!kPredicate<Fn> && Fn::kSimd >= 0 && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
        prepared.run.loop = reinterpret_cast<ElementRun::AnyFn>(std::is_same_v<T, float> ? s.simdF32 : s.simdF64);
        prepared.run.invoke = [](ElementRun::AnyFn loop, const std::byte* const* ins, std::byte* out, int64_t n) {
          reinterpret_cast<simd::UnaryFn<T>>(loop)(reinterpret_cast<const T*>(ins[0]), reinterpret_cast<T*>(out), n);
        };
      }
      return prepared;
    } else {
      return PreparedKernel{};
    }
  });
  if (!k.fn) unsupported(op, in[0]);
  return k;
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
  if (outs[0].data != ins[0].data && s.bytes > 0) copyTensorBytes(outs[0].data, ins[0].data, static_cast<size_t>(s.bytes));
}

}  // namespace

PreparedKernel prepareUnary(const Op& op, InTypes in, InTypes out) { return prepareBound<UnaryFunctions>(op, in, out); }

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
