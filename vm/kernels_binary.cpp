// Elementwise binary and ternary kernels: the Binary family (arithmetic,
// comparisons, logic, variadic maximum/minimum, in-place `_` variants), where,
// and scaled_add.
//
// Broadcasting is planned at prepare time (planBroadcast); at run time each
// innermost run is one Eigen expression whose operands are Maps or Constants.
// Operands of the same shape take a single flat expression over the buffer.
//
// Integer semantics: add/sub/mul wrap (two's complement, computed in uint32 to
// avoid signed-overflow UB); division and fmod truncate toward zero; division
// (and fmod) by zero throws "integer division by zero"; INT_MIN / -1 wraps to
// INT_MIN. Floats follow IEEE. f16 computes in f32 and rounds once per op.
// maximum/minimum propagate NaN (NumPy).
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

// The element functions of the Binary rows of ops.def (`Binary(Fn)`), one
// struct each: the element types it accepts, whether its result is bool, its
// vm/simd_kernels.h entry for f32/f64 if any (kSimd: arithmetic, kSimdCompare:
// a comparison; one IEEE operation per element, the same values as the Eigen
// path, only faster), and its math apply(a, b) on two same-length Eigen array
// expressions of a float, integer or bool scalar type C (f16 is passed already
// cast to float).
struct BinaryFunctions {
  static constexpr std::string_view family = "Binary";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);

  struct Base {
    static constexpr ElementTypes kAccepts = kNumbers;
    static constexpr bool kBoolResult = false;
    static constexpr int kSimd = -1, kSimdCompare = -1;
    // Integer division and fmod throw on a zero divisor (KernelError).
    static constexpr bool kDividesIntegers = false;
  };
  template <class C> static constexpr bool kIsFloatC = std::is_floating_point_v<C>;

  struct Add : Base {
    static constexpr int kSimd = simd::kAdd;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsFloatC<C>) return a + b;
      else return a.binaryExpr(b, [](C x, C y) { return C(static_cast<uint32_t>(x) + static_cast<uint32_t>(y)); });
    }
  };
  struct Sub : Base {
    static constexpr int kSimd = simd::kSub;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsFloatC<C>) return a - b;
      else return a.binaryExpr(b, [](C x, C y) { return C(static_cast<uint32_t>(x) - static_cast<uint32_t>(y)); });
    }
  };
  struct Mul : Base {
    static constexpr int kSimd = simd::kMul;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsFloatC<C>) return a * b;
      else return a.binaryExpr(b, [](C x, C y) { return C(static_cast<uint32_t>(x) * static_cast<uint32_t>(y)); });
    }
  };
  struct Div : Base {
    static constexpr int kSimd = simd::kDiv;
    static constexpr bool kDividesIntegers = true;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsFloatC<C>) return a / b;
      else
        return a.binaryExpr(b, [](C x, C y) {
          if constexpr (std::is_signed_v<C>)
            if (y == -1) return C(0u - static_cast<uint32_t>(x));  // INT_MIN / -1 wraps
          return C(x / y);
        });
    }
  };
  // The exponents 2, 3, -1 and 1 are the products they stand for (PyTorch's pow does the
  // same): x^2 and 1/x correctly rounded where the library's pow is within an ulp, and
  // the bits of the ops passes/reduce_powers.cpp puts in their place.
  struct Pow : Base {
    static constexpr ElementTypes kAccepts = kFloats;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      return a.binaryExpr(b, [](C x, C y) {
        if (y == C(2)) return C(x * x);
        if (y == C(3)) return C(C(x * x) * x);
        if (y == C(-1)) return C(C(1) / x);
        if (y == C(1)) return x;
        return std::pow(x, y);
      });
    }
  };
  struct Fmod : Base {
    static constexpr bool kDividesIntegers = true;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsFloatC<C>) return a.binaryExpr(b, [](C x, C y) { return std::fmod(x, y); });
      else
        return a.binaryExpr(b, [](C x, C y) {
          if constexpr (std::is_signed_v<C>)
            if (y == -1) return C(0);
          return C(x % y);
        });
    }
  };
  // maximum / minimum: NaN wins (NumPy); on bool, or / and.
  struct Maximum : Base {
    static constexpr ElementTypes kAccepts = kAll;
    static constexpr int kSimd = simd::kMax;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsBool<C>) return a || b;
      else if constexpr (kIsFloatC<C>) return a.binaryExpr(b, [](C x, C y) { return (x != x || x > y) ? x : y; });
      else return a.max(b);
    }
  };
  struct Minimum : Base {
    static constexpr ElementTypes kAccepts = kAll;
    static constexpr int kSimd = simd::kMin;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      if constexpr (kIsBool<C>) return a && b;
      else if constexpr (kIsFloatC<C>) return a.binaryExpr(b, [](C x, C y) { return (x != x || x < y) ? x : y; });
      else return a.min(b);
    }
  };
  // g * gelu'(x) for (x, g): f32/f64 through the SIMD table; f16 (computed in f32)
  // through the same f32 function one element at a time, so the values agree.
  struct GeluGrad : Base {
    static constexpr ElementTypes kAccepts = kFloats;
    static constexpr int kSimd = simd::kGeluGrad;
    template <class X, class Y> static auto apply(const X& a, const Y& b) {
      using C = typename X::Scalar;
      return a.binaryExpr(b, [](C x, C g) {
        C y = C(0);
        if constexpr (std::is_same_v<C, float>) {
          simd::table().f32.binary[simd::kGeluGrad][simd::kVecVec](&x, &g, &y, 1);
          return y;
        } else if constexpr (std::is_same_v<C, double>) {
          simd::table().f64.binary[simd::kGeluGrad][simd::kVecVec](&x, &g, &y, 1);
          return y;
        } else {
          return C(0);  // not reached: kAccepts is the float dtypes
        }
      });
    }
  };
  struct Comparison : Base {
    static constexpr ElementTypes kAccepts = kAll;
    static constexpr bool kBoolResult = true;
  };
  struct Equal : Comparison {
    static constexpr int kSimdCompare = simd::kEq;
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a == b; }
  };
  struct NotEqual : Comparison {
    static constexpr int kSimdCompare = simd::kNe;
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a != b; }
  };
  struct Greater : Comparison {
    static constexpr int kSimdCompare = simd::kGt;
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a > b; }
  };
  struct GreaterEqual : Comparison {
    static constexpr int kSimdCompare = simd::kGe;
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a >= b; }
  };
  struct Less : Comparison {
    static constexpr int kSimdCompare = simd::kLt;
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a < b; }
  };
  struct LessEqual : Comparison {
    static constexpr int kSimdCompare = simd::kLe;
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a <= b; }
  };
  struct Logical : Base {
    static constexpr ElementTypes kAccepts = kBools;
    static constexpr bool kBoolResult = true;
  };
  struct LogicalAnd : Logical {
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a && b; }
  };
  struct LogicalOr : Logical {
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a || b; }
  };
  struct LogicalXor : Logical {
    template <class X, class Y> static auto apply(const X& a, const Y& b) { return a != b; }
  };
};

// Result element type of B on T.
template <class T, class B> using ResultOf = std::conditional_t<B::kBoolResult, bool, T>;

// y[0:n] = B(a, b) for one run; a, b are Maps or Constants of T.
template <class T, class B, class R, class X, class Y> void binaryRun(R* y, int64_t n, const X& a, const Y& b) {
  if constexpr (kIsInt<T> && B::kDividesIntegers)
    if ((b == T(0)).any()) throw KernelError("integer division by zero");
  if constexpr (kIsHalf<T>) {
    if constexpr (std::is_same_v<R, bool>) VecMap<R>(y, n) = B::apply(a.template cast<float>(), b.template cast<float>());
    else VecMap<R>(y, n) = B::apply(a.template cast<float>(), b.template cast<float>()).template cast<Eigen::half>();
  } else {
    VecMap<R>(y, n) = B::apply(a, b);
  }
}

// f32/f64 arithmetic through the per-ISA loops (one IEEE operation per
// element, so the same values as the Eigen path, only faster).
template <class T, class B> constexpr bool kSimdBinary =
    (std::is_same_v<T, float> || std::is_same_v<T, double>) && B::kSimd >= 0;

template <class T> const simd::TypedTable<T>& typedTable() {
  if constexpr (std::is_same_v<T, float>) return simd::table().f32;
  else return simd::table().f64;
}

// Which operand of a run is one repeated element (a flat plan repeats neither).
int simdBinaryMode(const BroadcastPlan& p) {
  if (p.flat) return simd::kVecVec;
  return p.innerBroadcast[0] != 0 ? simd::kScalarVec : p.innerBroadcast[1] != 0 ? simd::kVecScalar : simd::kVecVec;
}

template <class T, class B> void applySimdBinary(const BroadcastPlan& p, const T* a, const T* b, T* y) {
  const auto& fns = typedTable<T>().binary[B::kSimd];
  if (p.flat) {
    const auto fn = fns[simd::kVecVec];
    splitRange(p.total, [&](int64_t s, int64_t e) { fn(a + s, b + s, y + s, e - s); });
    return;
  }
  const bool ra = p.innerBroadcast[0] != 0, rb = p.innerBroadcast[1] != 0;
  const int mode = simdBinaryMode(p);
  const auto fn = fns[mode];
  if (p.outer.empty()) {  // one run: e.g. a tensor and a scalar
    if (ra && rb) {
      fns[simd::kVecScalar](a, b, y, 1);
      std::fill(y + 1, y + p.total, y[0]);
    } else {
      splitRange(p.total, [&](int64_t s, int64_t e) { fn(ra ? a : a + s, rb ? b : b + s, y + s, e - s); });
    }
    return;
  }
  forEachRunSplit(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
    if (ra && rb) {
      fns[simd::kVecScalar](a + offs[0], b + offs[1], y + outOff, 1);
      std::fill(y + outOff + 1, y + outOff + n, y[outOff]);
    } else {
      fn(a + offs[0], b + offs[1], y + outOff, n);
    }
  });
}

// The SIMD loop of a binary op as an ElementRun, when the plan is one run with at
// most one repeated operand (elementwise, or a tensor and a scalar).
template <class T, class B> ElementRun simdBinaryRun(const BroadcastPlan& p) {
  if constexpr (kSimdBinary<T, B>) {
    if (!(p.flat || p.outer.empty()) || (p.innerBroadcast[0] != 0 && p.innerBroadcast[1] != 0)) return {};
    ElementRun run;
    run.loop = reinterpret_cast<ElementRun::AnyFn>(typedTable<T>().binary[B::kSimd][simdBinaryMode(p)]);
    run.invoke = [](ElementRun::AnyFn loop, const std::byte* const* ins, std::byte* out, int64_t n) {
      reinterpret_cast<simd::BinaryFn<T>>(loop)(reinterpret_cast<const T*>(ins[0]), reinterpret_cast<const T*>(ins[1]),
                                                reinterpret_cast<T*>(out), n);
    };
    return run;
  } else {
    return {};
  }
}

template <class T, class B> constexpr bool kSimdCompare =
    (std::is_same_v<T, float> || std::is_same_v<T, double>) && B::kSimdCompare >= 0;

// f32/f64 comparisons through the per-ISA loops (the same IEEE comparison per
// element as the Eigen path).
template <class T, class B> void applySimdCompare(const BroadcastPlan& p, const T* a, const T* b, bool* y) {
  const auto& fns = typedTable<T>().compare[B::kSimdCompare];
  if (p.flat) {
    splitRange(p.total, [&](int64_t s, int64_t e) { fns[simd::kVecVec](a + s, b + s, y + s, e - s); });
    return;
  }
  const bool ra = p.innerBroadcast[0] != 0, rb = p.innerBroadcast[1] != 0;
  const int mode = ra && rb ? simd::kVecScalar : ra ? simd::kScalarVec : rb ? simd::kVecScalar : simd::kVecVec;
  const auto fn = fns[mode];
  if (p.outer.empty()) {
    if (ra && rb) {
      fn(a, b, y, 1);
      std::fill(y + 1, y + p.total, y[0]);
    } else {
      splitRange(p.total, [&](int64_t s, int64_t e) { fn(ra ? a : a + s, rb ? b : b + s, y + s, e - s); });
    }
    return;
  }
  forEachRunSplit(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
    if (ra && rb) {
      fn(a + offs[0], b + offs[1], y + outOff, 1);
      std::fill(y + outOff + 1, y + outOff + n, y[outOff]);
    } else {
      fn(a + offs[0], b + offs[1], y + outOff, n);
    }
  });
}

template <class T, class B, class R> void applyBinary(const BroadcastPlan& p, const T* a, const T* b, R* y) {
  if constexpr (kSimdBinary<T, B>) {
    applySimdBinary<T, B>(p, a, b, y);
    return;
  }
  if constexpr (kSimdCompare<T, B>) {
    applySimdCompare<T, B>(p, a, b, y);
    return;
  }
  if (p.flat) {
    binaryRun<T, B>(y, p.total, CVecMap<T>(a, p.total), CVecMap<T>(b, p.total));
    return;
  }
  R* yrun = y;
  auto math = [&](int64_t n, const auto& ea, const auto& eb) { binaryRun<T, B>(yrun, n, ea, eb); };
  forEachRun(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
    yrun = y + outOff;
    withRunExprs(math, n,
                 std::make_tuple(RunIn<T>{a + offs[0], p.innerBroadcast[0] != 0},
                                 RunIn<T>{b + offs[1], p.innerBroadcast[1] != 0}));
  });
}

struct BinaryState {
  BroadcastPlan plan;                    // operands 0 and 1 → result
  std::vector<BroadcastPlan> variadic;   // maximum/minimum: (result, operand k+2) → result
};

template <class T, class B> void runBinary(const BinaryState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using R = ResultOf<T, B>;
  R* y = outs[0].as<R>();
  applyBinary<T, B>(s.plan, ins[0].as<const T>(), ins[1].as<const T>(), y);
  if constexpr (std::is_same_v<R, T>)
    for (size_t k = 0; k < s.variadic.size(); ++k) applyBinary<T, B>(s.variadic[k], y, ins[k + 2].as<const T>(), y);
}

// ---- where ---------------------------------------------------------------------

struct PlanState {
  BroadcastPlan plan;
};

template <class T> void runWhere(const PlanState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const BroadcastPlan& p = s.plan;
  const bool* c = ins[0].as<const bool>();
  const T* x = ins[1].as<const T>();
  const T* z = ins[2].as<const T>();
  T* y = outs[0].as<T>();
  // Moves bits: one loop per element size, any dtype.
  const auto fn = simd::table().where[sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3];
  if (p.flat) {
    splitRange(p.total, [&](int64_t s, int64_t e) { fn(c + s, x + s, z + s, y + s, e - s, 0); });
    return;
  }
  if (p.outer.empty()) {
    const int rep = p.innerBroadcast[0] | (p.innerBroadcast[1] << 1) | (p.innerBroadcast[2] << 2);
    splitRange(p.total, [&](int64_t s, int64_t e) {
      fn((rep & 1) ? c : c + s, (rep & 2) ? x : x + s, (rep & 4) ? z : z + s, y + s, e - s, rep);
    });
    return;
  }
  if (p.inner >= 16) {
    const int rep = p.innerBroadcast[0] | (p.innerBroadcast[1] << 1) | (p.innerBroadcast[2] << 2);
    forEachRunSplit(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
      fn(c + offs[0], x + offs[1], z + offs[2], y + outOff, n, rep);
    });
    return;
  }
  T* yrun = y;
  auto math = [&](int64_t n, const auto& ec, const auto& ex, const auto& ez) { VecMap<T>(yrun, n) = ec.select(ex, ez); };
  forEachRun(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
    yrun = y + outOff;
    withRunExprs(math, n,
                 std::make_tuple(RunIn<bool>{c + offs[0], p.innerBroadcast[0] != 0},
                                 RunIn<T>{x + offs[1], p.innerBroadcast[1] != 0},
                                 RunIn<T>{z + offs[2], p.innerBroadcast[2] != 0}));
  });
}

// ---- scaled_add ------------------------------------------------------------------

struct ScaledAddState {
  BroadcastPlan plan;
  double a, b;         // attribute values, when not operands
  bool aOperand, bOperand;  // read a (operand 2) / b (operand 3) at run time
};

// a*x + b*y in the compute type; integers compute in f64 and convert as cast does.
template <class T> void runScaledAdd(const ScaledAddState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const double a = s.aOperand ? readAsDouble(ins[2]) : s.a;
  const double b = s.bOperand ? readAsDouble(ins[3]) : s.b;
  using C = ComputeOf<T>;
  const BroadcastPlan& p = s.plan;
  const T* x = ins[0].as<const T>();
  const T* z = ins[1].as<const T>();
  T* y = outs[0].as<T>();
  T* yrun = y;
  auto math = [&](int64_t n, const auto& ex, const auto& ez) {
    if constexpr (kIsFloat<T>) {
      VecMap<T>(yrun, n) = (C(a) * ex.template cast<C>() + C(b) * ez.template cast<C>()).template cast<T>();
    } else {
      VecMap<T>(yrun, n) = ex.binaryExpr(ez, [a, b](T u, T v) {
        return convertValue<T>(a * static_cast<double>(u) + b * static_cast<double>(v));
      });
    }
  };
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // The same two products and sum as the Eigen expression, per-ISA loop.
    const auto fn = typedTable<T>().scaledAdd;
    if (p.flat) {
      splitRange(p.total, [&](int64_t s, int64_t e) { fn(x + s, z + s, y + s, T(a), T(b), e - s, simd::kVecVec); });
      return;
    }
    const bool rx = p.innerBroadcast[0] != 0, rz = p.innerBroadcast[1] != 0;
    if (!(rx && rz)) {
      const int mode = rx ? simd::kScalarVec : rz ? simd::kVecScalar : simd::kVecVec;
      forEachRunSplit(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
        fn(x + offs[0], z + offs[1], y + outOff, T(a), T(b), n, mode);
      });
      return;
    }
  }
  if (p.flat) {
    math(p.total, CVecMap<T>(x, p.total), CVecMap<T>(z, p.total));
    return;
  }
  forEachRun(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
    yrun = y + outOff;
    withRunExprs(math, n,
                 std::make_tuple(RunIn<T>{x + offs[0], p.innerBroadcast[0] != 0},
                                 RunIn<T>{z + offs[1], p.innerBroadcast[1] != 0}));
  });
}

}  // namespace

template <class Fn> PreparedKernel BinaryFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if (in.size() < 2 || out.empty()) throw KernelError("'" + std::string(op.info().name) + "' is not a binary op");
  for (const TensorType& t : in)
    if (t.dtype != in[0].dtype) throw KernelError("'" + std::string(op.info().name) + "': operand dtypes differ");
  BinaryState s;
  const Shape shapes[2] = {in[0].shape, in[1].shape};
  s.plan = planBroadcast(shapes, out[0].shape);
  for (size_t k = 2; k < in.size(); ++k) {
    const Shape pair[2] = {out[0].shape, in[k].shape};
    s.variadic.push_back(planBroadcast(pair, out[0].shape));
  }
  PreparedKernel k = dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (accepts<T>(Fn::kAccepts)) {
      const ElementRun run = in.size() == 2 ? simdBinaryRun<T, Fn>(s.plan) : ElementRun{};
      PreparedKernel prepared = makeKernel<BinaryState, runBinary<T, Fn>>(std::move(s));
      prepared.run = run;
      return prepared;
    } else {
      return PreparedKernel{};
    }
  });
  if (!k.fn) unsupported(op, in[0]);
  return k;
}

// Per row of the Binary family: whether its element function divides integers
// (and so throws on a zero divisor).
struct DividesIntegersRows {
  static constexpr std::string_view name = BinaryFunctions::family;
  using Functions = BinaryFunctions;
  static constexpr bool kNone = false;
  template <class Fn> static constexpr bool bind() { return Fn::kDividesIntegers; }
};
constexpr auto kDividesIntegers = bindRows<DividesIntegersRows>();

PreparedKernel prepareBinary(const Op& op, InTypes in, InTypes out) { return prepareBound<BinaryFunctions>(op, in, out); }

bool dividesIntegers(OpCode code) { return kDividesIntegers[static_cast<size_t>(code)]; }

PreparedKernel prepareWhere(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 3 || out.empty() || in[0].dtype != DType::Bool || in[1].dtype != in[2].dtype)
    throw KernelError("'where' needs a bool condition and two operands of one dtype");
  const Shape shapes[3] = {in[0].shape, in[1].shape, in[2].shape};
  PlanState s{planBroadcast(shapes, out[0].shape)};
  return dispatchDType(in[1].dtype, [&]<class T>() { return makeKernel<PlanState, runWhere<T>>(std::move(s)); });
}

PreparedKernel prepareScaledAdd(const Op& op, InTypes in, InTypes out) {
  if (in.size() < 2 || out.empty() || in[0].dtype != in[1].dtype)
    throw KernelError("'" + std::string(op.info().name) + "' needs two operands of one dtype");
  const Shape shapes[2] = {in[0].shape, in[1].shape};
  const attrs::View<attrs::kernelFamily("ScaledAdd")> attr{op};
  ScaledAddState s{planBroadcast(shapes, out[0].shape), attr.a(), attr.b(), in.size() > 2, in.size() > 3};
  if (in[0].dtype == DType::Bool) unsupported(op, in[0]);
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return PreparedKernel{};
    else return makeKernel<ScaledAddState, runScaledAdd<T>>(std::move(s));
  });
}

}  // namespace pir::vm::detail
