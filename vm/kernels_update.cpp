// Variable updates (ops.md "Variable updates"), all in place on operand 0 `t`:
// every one is t = alpha*t + beta*g(x) with g(x) = x or x*x, where alpha and
// beta come from attributes or scalar tensor operands read at run time. `x`
// broadcasts to t's shape.
//
// Integers: a plain accumulate_ wraps like add_; the scaled forms compute in
// f64 and convert back as cast does (truncate, saturate).
// adam_updater / adam_var_update_ (float only) are here too: same family.
#include "vm/kernel_util.h"
#include "vm/tensor.h"

namespace pir::vm::detail {
namespace {

enum class Upd : uint8_t { Accumulate, Square, Mean, MovingAverage, Scale, Zero, Copy };

struct UpdateState {
  Upd kind;
  BroadcastPlan plan;   // (t, x) → t
  double f = 1;         // attribute f
  bool hasF = false;    // accumulate_: f given (attribute or operand)
  bool fOperand = false;  // accumulate_: f is operand 2
  int64_t n = 0;        // elements of t
};

template <class T> void runUpdate(const UpdateState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  T* t = outs[0].as<T>();
  if (outs[0].data != ins[0].data) copyBytes(t, ins[0].data, static_cast<size_t>(s.n) * sizeof(T));
  VecMap<T> tv(t, s.n);
  double alpha = 1, beta = 1;
  bool square = false;
  switch (s.kind) {
    case Upd::Accumulate: beta = s.fOperand ? readAsDouble(ins[2]) : s.hasF ? s.f : 1; break;
    case Upd::Square: beta = s.f; square = true; break;
    case Upd::Mean: {
      const double step = readAsDouble(ins[2]);
      alpha = step / (step + 1);
      beta = 1 / (step + 1);
      break;
    }
    case Upd::MovingAverage: alpha = s.f; beta = 1 - s.f; break;
    case Upd::Scale:
      // f = 0 clears the accumulator, inf/NaN included (PopXL).
      if (s.f == 0) tv.setZero();
      else if constexpr (kIsFloat<T>) tv = (tv.template cast<ComputeOf<T>>() * ComputeOf<T>(s.f)).template cast<T>();
      else if constexpr (!kIsBool<T>) tv = tv.unaryExpr([f = s.f](T v) { return convertValue<T>(v * f); });
      return;
    case Upd::Zero: tv.setZero(); return;
    case Upd::Copy: alpha = 0; break;
  }
  const T* x = ins[1].as<const T>();
  T* trun = t;
  auto math = [&](int64_t n, const auto& et, const auto& ex) {
    VecMap<T> dst(trun, n);
    if (s.kind == Upd::Copy) {
      dst = ex;
    } else if constexpr (kIsBool<T>) {
      // unreachable: only copy/zero are prepared for bool
    } else if constexpr (kIsFloat<T>) {
      using C = ComputeOf<T>;
      auto xc = ex.template cast<C>();
      if (square) dst = (C(alpha) * et.template cast<C>() + C(beta) * xc.square()).template cast<T>();
      else if (alpha == 1 && beta == 1) dst = (et.template cast<C>() + xc).template cast<T>();
      else dst = (C(alpha) * et.template cast<C>() + C(beta) * xc).template cast<T>();
    } else if (alpha == 1 && beta == 1 && !square) {
      dst = et.binaryExpr(ex, [](T a, T b) { return T(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); });
    } else {
      dst = et.binaryExpr(ex, [alpha, beta, square](T a, T b) {
        const double g = square ? static_cast<double>(b) * static_cast<double>(b) : static_cast<double>(b);
        return convertValue<T>(alpha * static_cast<double>(a) + beta * g);
      });
    }
  };
  const BroadcastPlan& p = s.plan;
  if (p.flat) {
    math(p.total, CVecMap<T>(t, p.total), CVecMap<T>(x, p.total));
    return;
  }
  forEachRun(p, [&](const int64_t* offs, int64_t outOff, int64_t n) {
    trun = t + outOff;
    withRunExprs(math, n,
                 std::make_tuple(RunIn<T>{t + offs[0], p.innerBroadcast[0] != 0},
                                 RunIn<T>{x + offs[1], p.innerBroadcast[1] != 0}));
  });
}

// ---- Adam pieces (PopXL ops.var_updates.adam_updater / adam_var_update) -----------

struct AdamState {
  int64_t n = 0;
  double beta1 = 0, beta2 = 0, eps = 0;  // adam_updater's row (its defaults are in ops.def)
  bool hasStep = false, stepOperand = false;  // bias correction by step (operand 2 or attribute)
  double step = 0;
  double lr = 0;  // adam_var_update_
};

// update = m̂ / (sqrt(v̂) + eps), with m̂ = m / (1 - beta1^step), v̂ = v / (1 - beta2^step)
// when a step is given, else the raw accumulators.
template <class T> void runAdamUpdater(const AdamState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  double c1 = 1, c2 = 1;
  if (s.hasStep) {
    const double step = s.stepOperand ? readAsDouble(ins[2]) : s.step;
    c1 = 1 / (1 - std::pow(s.beta1, step));
    c2 = 1 / (1 - std::pow(s.beta2, step));
  }
  const auto m = CVecMap<T>(ins[0].as<const T>(), s.n).template cast<C>();
  const auto v = CVecMap<T>(ins[1].as<const T>(), s.n).template cast<C>();
  VecMap<T>(outs[0].as<T>(), s.n) = ((m * C(c1)) / ((v * C(c2)).sqrt() + C(s.eps))).template cast<T>();
}

// w -= lr * update
template <class T> void runAdamVarUpdate(const AdamState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  VecMap<T> w(outs[0].as<T>(), s.n);
  const auto u = CVecMap<T>(ins[1].as<const T>(), s.n).template cast<C>();
  w = (CVecMap<T>(ins[0].as<const T>(), s.n).template cast<C>() - C(s.lr) * u).template cast<T>();
}

PreparedKernel prepareAdam(const Op& op, InTypes in, InTypes out, bool updater) {
  if (in.size() < 2 || !isFloat(in[0].dtype) || in[1].dtype != in[0].dtype || in[1].shape != in[0].shape)
    throw KernelError("'" + std::string(op.info().name) + "' needs two float operands of one type");
  AdamState s;
  s.n = in[0].numElements();
  s.stepOperand = in.size() > 2;
  if (updater) {
    const attrs::AdamUpdater attr{op};
    s.beta1 = attr.beta1();
    s.beta2 = attr.beta2();
    s.eps = attr.eps();
    const std::optional<double> step = attr.step();
    s.hasStep = s.stepOperand || step.has_value();
    s.step = step.value_or(0);
  } else {
    s.lr = attrs::AdamVarUpdate{op}.lr();
  }
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (!kIsFloat<T>) return PreparedKernel{};
    else if (updater) return makeKernel<AdamState, runAdamUpdater<T>>(s);
    else return makeKernel<AdamState, runAdamVarUpdate<T>>(s);
  });
}

PreparedKernel prepareUpdate(const Op& op, InTypes in, InTypes out, Upd kind) {
  UpdateState s;
  s.kind = kind;
  if (in.empty()) throw KernelError("'" + std::string(op.info().name) + "' needs a target operand");
  const TensorType& t = in[0];
  const bool needsX = s.kind != Upd::Scale && s.kind != Upd::Zero;
  if (needsX) {
    if (in.size() < 2 || in[1].dtype != t.dtype)
      throw KernelError("'" + std::string(op.info().name) + "': the update must have the target's dtype");
    const Shape shapes[2] = {t.shape, in[1].shape};
    s.plan = planBroadcast(shapes, t.shape);
  }
  if (s.kind == Upd::Mean && in.size() < 3) throw KernelError("accumulate_mean_ needs a step operand");
  // `f` where the row declares it (written or defaulted); 1 leaves the update unscaled.
  const std::optional<double> f = attrs::View<attrs::kernelFamily("VarUpdate")>{op}.f();
  s.f = f.value_or(1);
  s.hasF = f.has_value() || in.size() > 2;
  s.fOperand = s.kind == Upd::Accumulate && in.size() > 2;
  s.n = t.numElements();
  if (t.dtype == DType::Bool && s.kind != Upd::Copy && s.kind != Upd::Zero) unsupported(op, t);
  return dispatchDType(t.dtype, [&]<class T>() { return makeKernel<UpdateState, runUpdate<T>>(std::move(s)); });
}

// The update rules of the VarUpdate rows of ops.def (`VarUpdate(Fn)`): one of
// runUpdate's forms t = alpha*t + beta*g(x), or adam's.
struct VarUpdateFunctions {
  static constexpr std::string_view family = "VarUpdate";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out);

  template <Upd K> struct Rule { static constexpr Upd kKind = K; };
  using Accumulate = Rule<Upd::Accumulate>;
  using AccumulateSquare = Rule<Upd::Square>;
  using AccumulateMean = Rule<Upd::Mean>;
  using MovingAverage = Rule<Upd::MovingAverage>;
  using Scale = Rule<Upd::Scale>;
  using Zero = Rule<Upd::Zero>;
  using Copy = Rule<Upd::Copy>;
  struct AdamUpdater { static constexpr bool kUpdater = true; };  // the update from the accumulators
  struct AdamVarUpdate { static constexpr bool kUpdater = false; };  // w -= lr * update
};

template <class Fn> PreparedKernel VarUpdateFunctions::prepare(const Op& op, InTypes in, InTypes out) {
  if constexpr (requires { Fn::kUpdater; }) return prepareAdam(op, in, out, Fn::kUpdater);
  else return prepareUpdate(op, in, out, Fn::kKind);
}

}  // namespace

PreparedKernel prepareVarUpdate(const Op& op, InTypes in, InTypes out) { return prepareBound<VarUpdateFunctions>(op, in, out); }

}  // namespace pir::vm::detail

