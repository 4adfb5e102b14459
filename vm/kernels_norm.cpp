// Normalisation and loss kernels: layer_norm (the dims from `axis`), group_norm and
// batch_norm_inference (channels on axis 1), nll_loss. Float dtypes; f16
// computes in f32. Variances are biased (divide by the count), as in PopXL.
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

template <class T> using Rows = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// x viewed as [n, groups, perGroup] normalised over perGroup; then each element's
// channel c = (index / spatial) % channels scales by gamma[c] and shifts by beta[c].
struct NormState {
  int64_t rows = 0, perRow = 0;        // normalisation groups and their size
  int64_t channels = 1, spatial = 1;   // affine parameter layout
  double epsilon = 1e-5;
};

template <class T> void runGroupNorm(const NormState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  if (s.rows * s.perRow == 0) return;
  const ScratchCharge charge(static_cast<uint64_t>(s.rows * s.perRow), sizeof(C));  // the normalised copy
  Rows<C> x = Eigen::Map<const Rows<T>>(ins[0].as<const T>(), s.rows, s.perRow).template cast<C>();
  const Vec<C> mean = x.rowwise().mean();
  x.colwise() -= mean;
  const Vec<C> invStd = (x.square().rowwise().mean() + C(s.epsilon)).rsqrt();
  x.colwise() *= invStd;
  // Affine: view as [outer, channels, spatial].
  const CVecMap<T> gamma(ins[1].as<const T>(), s.channels), beta(ins[2].as<const T>(), s.channels);
  if (s.spatial == 1 && s.channels == s.perRow) {  // layer_norm: parameters along each row
    const Eigen::Array<C, 1, Eigen::Dynamic> g = gamma.template cast<C>().transpose();
    const Eigen::Array<C, 1, Eigen::Dynamic> b = beta.template cast<C>().transpose();
    x = (x.rowwise() * g).rowwise() + b;
  } else {
    const int64_t outer = s.rows * s.perRow / (s.channels * s.spatial);
    Eigen::Map<Rows<C>> y3(x.data(), outer * s.channels, s.spatial);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < s.channels; ++c)
        y3.row(o * s.channels + c) = y3.row(o * s.channels + c) * C(gamma[c]) + C(beta[c]);
  }
  VecMap<T>(outs[0].as<T>(), s.rows * s.perRow) = Eigen::Map<const Vec<C>>(x.data(), s.rows * s.perRow).template cast<T>();
}

struct BatchNormState {
  int64_t outer = 0, channels = 1, spatial = 1;
  double epsilon = 1e-5;
};

template <class T> void runBatchNorm(const BatchNormState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const Vec<C> scale = CVecMap<T>(ins[1].as<const T>(), s.channels).template cast<C>();
  const Vec<C> bias = CVecMap<T>(ins[2].as<const T>(), s.channels).template cast<C>();
  const Vec<C> mean = CVecMap<T>(ins[3].as<const T>(), s.channels).template cast<C>();
  const Vec<C> var = CVecMap<T>(ins[4].as<const T>(), s.channels).template cast<C>();
  const Vec<C> mul = scale * (var + C(s.epsilon)).rsqrt();
  const Vec<C> add = bias - mean * mul;
  const T* x = ins[0].as<const T>();
  T* y = outs[0].as<T>();
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t c = 0; c < s.channels; ++c) {
      const int64_t base = (o * s.channels + c) * s.spatial;
      VecMap<T>(y + base, s.spatial) = (CVecMap<T>(x + base, s.spatial).template cast<C>() * mul[c] + add[c]).template cast<T>();
    }
}

struct NllState {
  int64_t rows = 0, classes = 0;
  bool logProb = false, hasIgnore = false, weighted = false;  // weighted: the class weights are operand 2
  int64_t ignoreIndex = 0;
  using Reduction = LossReduction;
  Reduction reduction = Reduction::Mean;
};

template <class T> void runNllLoss(const NllState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const T* probs = ins[0].as<const T>();
  const T* weights = s.weighted ? ins[2].as<const T>() : nullptr;
  T* y = outs[0].as<T>();
  C total = 0;
  C counted = 0;  // the mean's divisor: the counted rows' weights (1 each without weights)
  for (int64_t r = 0; r < s.rows; ++r) {
    const int64_t label = static_cast<int64_t>(readAsDouble(ins[1], r));
    C loss = 0;
    if (!(s.hasIgnore && label == s.ignoreIndex)) {
      if (label < 0 || label >= s.classes)
        throw KernelError("label " + std::to_string(label) + " is out of range for " + std::to_string(s.classes) +
                          " classes");
      const C p = static_cast<C>(probs[r * s.classes + label]);
      const C w = weights ? static_cast<C>(weights[label]) : C(1);
      loss = (s.logProb ? -p : -std::log(p)) * w;
      counted += w;
    }
    if (s.reduction == NllState::Reduction::None) y[r] = static_cast<T>(loss);
    total += loss;
  }
  if (s.reduction == NllState::Reduction::Sum) y[0] = static_cast<T>(total);
  else if (s.reduction == NllState::Reduction::Mean) y[0] = static_cast<T>(total / counted);  // 0/0: NaN
}

template <template <class> class Run, class State> PreparedKernel floatKernel(const Op& op, const TensorType& t, State s) {
  if (!isFloat(t.dtype)) unsupported(op, t);
  return dispatchDType(t.dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<State, Run<T>::fn>(std::move(s));
    else return PreparedKernel{};
  });
}

template <class T> struct GroupNormRun { static constexpr auto fn = runGroupNorm<T>; };
template <class T> struct BatchNormRun { static constexpr auto fn = runBatchNorm<T>; };
template <class T> struct NllRun { static constexpr auto fn = runNllLoss<T>; };

// The normalisations of the Norm rows of ops.def (`Norm(Fn)`).
struct NormFunctions {
  static constexpr std::string_view family = "Norm";
  template <class Fn> static PreparedKernel prepare(const Op& op, InTypes in, InTypes out) {
    const TensorType& x = in[0];
    const double eps = attrs::View<attrs::kernelFamily("Norm")>{op}.epsilon();
    if (x.rank() < 1) unsupported(op, x);
    return Fn::prepare(op, x, eps);
  }

  struct LayerNorm {  // over the dims from `axis`, as one flattened row
    static PreparedKernel prepare(const Op& op, const TensorType& x, double eps) {
      const int64_t cols = layerNormCols(op, x, attrs::LayerNorm{op}.axis());
      NormState s{cols == 0 ? 0 : x.numElements() / cols, cols, cols, 1, eps};
      return floatKernel<GroupNormRun>(op, x, s);
    }
  };
  struct GroupNorm {  // x: [n, channels, spatial...]
    static PreparedKernel prepare(const Op& op, const TensorType& x, double eps) {
      if (x.rank() < 2) unsupported(op, x);
      const int64_t n = x.shape[0], channels = x.shape[1];
      const int64_t spatial = dimProduct(x.shape, 2, x.shape.size());
      const int64_t groups = attrs::GroupNorm{op}.groups();
      if (groups < 1 || channels % groups != 0) throw KernelError("group_norm: groups must divide the channels");
      NormState s{n * groups, channels / groups * spatial, channels, spatial, eps};
      return floatKernel<GroupNormRun>(op, x, s);
    }
  };
  struct BatchNormInference {  // x: [n, channels, spatial...]
    static PreparedKernel prepare(const Op& op, const TensorType& x, double eps) {
      if (x.rank() < 2) unsupported(op, x);
      const int64_t n = x.shape[0], channels = x.shape[1];
      const int64_t spatial = dimProduct(x.shape, 2, x.shape.size());
      BatchNormState s{n, channels, spatial, eps};
      return floatKernel<BatchNormRun>(op, x, s);
    }
  };
};

}  // namespace

PreparedKernel prepareNorm(const Op& op, InTypes in, InTypes out) { return prepareBound<NormFunctions>(op, in, out); }

PreparedKernel prepareNllLoss(const Op& op, InTypes in, InTypes out) {
  if (in.size() < 2 || in[0].rank() < 1 || !isInteger(in[1].dtype)) throw KernelError("nll_loss needs probs and integer labels");
  NllState s;
  s.classes = in[0].shape.back();
  s.weighted = in.size() > 2;
  if (s.weighted && (in[2].dtype != in[0].dtype || in[2].shape != Shape{s.classes}))
    throw KernelError("nll_loss: the weight " + in[2].str() + " needs one value per class of " + in[0].str());
  s.rows = in[1].numElements();
  const attrs::View<attrs::kernelFamily("NllLoss")> attr{op};
  s.logProb = attr.log_prob();
  if (const std::optional<int64_t> ignore = attr.ignore_index()) {
    s.hasIgnore = true;
    s.ignoreIndex = *ignore;
  }
  s.reduction = attr.reduction();
  return floatKernel<NllRun>(op, in[0], s);
}

}  // namespace pir::vm::detail
