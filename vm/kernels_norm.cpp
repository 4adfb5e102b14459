// Normalisation and loss kernels: layer_norm (the dims from `axis`), group_norm and
// batch_norm_inference (channels on axis 1), nll_loss. Float dtypes; f16
// computes in f32. Variances are biased (divide by the count), as in PopXL.
#include "vm/kernel_util.h"
#include "vm/norm_row.h"

namespace pir::vm::detail {
namespace {

// x viewed as [rows, perRow], each row normalised; then each element's channel
// c = (index / spatial) % channels scales by gamma[c] and shifts by beta[c].
struct NormState {
  int64_t rows = 0, perRow = 0;        // normalisation groups and their size
  int64_t channels = 1, spatial = 1;   // affine parameter layout; perRow is a multiple of spatial
  double epsilon = 1e-5;
};

// One row at a time with the SIMD table's loops, the operations of layer_norm_grad's
// xhat in its order:
//   mean = sum(x) / n,  rstd = 1 / sqrt(sum((x - mean)^2) / n + epsilon),
//   y = (x - mean) * rstd * gamma[c] + beta[c]
// The sums take the table's documented order, which depends on the row alone (not
// on where it lies), so a row's result does not depend on its position, and rows
// split over the kernel threads give the same bits as one thread.
template <class T> void runGroupNorm(const NormState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  if (s.rows * s.perRow == 0) return;
  const auto& f = simd::tableOf<C>();
  const int64_t n = s.perRow, perChannelBlock = s.perRow / s.spatial;
  const size_t cols = static_cast<size_t>(n);
  constexpr bool kConvert = !std::is_same_v<T, C>;
  // gamma and beta in C; per part, a row of C (and with a conversion two more).
  const ScratchCharge charge(saturatingMul(saturatingMul(cols, kConvert ? 3 : 1), static_cast<uint64_t>(simd::kernelThreads())) +
                                 2 * static_cast<uint64_t>(s.channels),
                             sizeof(C));
  std::vector<C> gamma(static_cast<size_t>(s.channels)), beta(static_cast<size_t>(s.channels));
  for (int64_t c = 0; c < s.channels; ++c) {
    gamma[static_cast<size_t>(c)] = static_cast<C>(ins[1].as<const T>()[c]);
    beta[static_cast<size_t>(c)] = static_cast<C>(ins[2].as<const T>()[c]);
  }
  const bool perColumn = s.spatial == 1 && s.channels == s.perRow;  // layer_norm: parameters along each row
  const C eps = static_cast<C>(s.epsilon);
  constexpr int kVS = simd::kVecScalar;
  splitRows(s.rows, n, [&](int64_t r0, int64_t r1) {
    std::vector<C> xhat(perColumn ? 0 : cols), xrow(kConvert ? cols : 0), yrow(kConvert ? cols : 0);
    for (int64_t r = r0; r < r1; ++r) {
      const T* x = ins[0].as<const T>() + r * n;
      T* y = outs[0].as<T>() + r * n;
      const C* xr;
      C* out;
      if constexpr (kConvert) {
        for (size_t j = 0; j < cols; ++j) xrow[j] = static_cast<C>(x[j]);
        xr = xrow.data(), out = yrow.data();
      } else {
        xr = x, out = y;
      }
      if (perColumn) {
        f.layerNormRow(xr, gamma.data(), beta.data(), n, eps, out);
      } else {
        normaliseRow(xr, n, eps, xhat.data());
        const int64_t firstChannel = r * perChannelBlock % s.channels;
        for (int64_t b = 0; b < perChannelBlock; ++b) {
          const size_t c = static_cast<size_t>((firstChannel + b) % s.channels);
          const int64_t at = b * s.spatial;
          f.binary[simd::kMul][kVS](xhat.data() + at, &gamma[c], out + at, s.spatial);
          f.binary[simd::kAdd][kVS](out + at, &beta[c], out + at, s.spatial);
        }
      }
      if constexpr (kConvert)
        for (size_t j = 0; j < cols; ++j) y[j] = static_cast<T>(yrow[j]);
    }
  });
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
  // 1 / sqrt per channel, correctly rounded: Eigen's rsqrt is approximate for the
  // channels it takes in whole vectors only, so a channel's result would depend on
  // its index.
  Vec<C> mul(s.channels);
  for (int64_t c = 0; c < s.channels; ++c) mul[c] = scale[c] * (C(1) / std::sqrt(var[c] + C(s.epsilon)));
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
