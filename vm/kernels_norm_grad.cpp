// layer_norm_grad: the gradients of layer_norm (normalised over the last axis) for x,
// gamma and beta, one row at a time in one kernel:
//   xhat = (x - mean) * rstd,  rstd = 1 / sqrt(var + epsilon)  (biased variance)
//   dxhat = g * gamma
//   dx = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) * rstd
//   dgamma = Σ_rows g * xhat,  dbeta = Σ_rows g   (rows summed in order)
// Float dtypes; f16 computes in f32. Every sum runs in row and column order, so the
// bits do not depend on the number of threads.
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

struct LayerNormGradState {
  int64_t rows = 0, cols = 0;
  double epsilon = 1e-5;
};

template <class T>
void runLayerNormGrad(const LayerNormGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const int64_t cols = s.cols;
  const T* x = ins[0].as<const T>();
  const T* gamma = ins[1].as<const T>();
  const T* g = ins[2].as<const T>();
  T* dx = outs[0].as<T>();
  std::vector<C> dgamma(static_cast<size_t>(cols), C(0)), dbeta(static_cast<size_t>(cols), C(0)),
      xhat(static_cast<size_t>(cols)), dxhat(static_cast<size_t>(cols)), gam(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j) gam[static_cast<size_t>(j)] = static_cast<C>(gamma[j]);
  const C n = static_cast<C>(cols), eps = static_cast<C>(s.epsilon);
  C* xh = xhat.data();
  C* dh = dxhat.data();
  C* dgm = dgamma.data();
  C* dbt = dbeta.data();
  const C* gm = gam.data();
  for (int64_t r = 0; r < s.rows; ++r, x += cols, g += cols, dx += cols) {
    C sum = 0;
    for (int64_t j = 0; j < cols; ++j) sum += static_cast<C>(x[j]);
    const C mean = sum / n;
    C sq = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const C d = static_cast<C>(x[j]) - mean;
      xh[j] = d;
      sq += d * d;
    }
    const C rstd = C(1) / std::sqrt(sq / n + eps);
    C m1 = 0, m2 = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const C gj = static_cast<C>(g[j]);
      xh[j] *= rstd;
      dh[j] = gj * gm[j];
      m1 += dh[j];
      m2 += dh[j] * xh[j];
      dgm[j] += gj * xh[j];
      dbt[j] += gj;
    }
    m1 /= n;
    m2 /= n;
    for (int64_t j = 0; j < cols; ++j) dx[j] = static_cast<T>((dh[j] - m1 - xh[j] * m2) * rstd);
  }
  for (int64_t j = 0; j < cols; ++j) {
    outs[1].as<T>()[j] = static_cast<T>(dgm[j]);
    outs[2].as<T>()[j] = static_cast<T>(dbt[j]);
  }
}

}  // namespace

PreparedKernel prepareLayerNormGrad(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 3 || out.size() != 3 || in[0].rank() < 1 || in[2] != in[0] || in[1].dtype != in[0].dtype ||
      in[1].shape != Shape{in[0].shape.back()})
    throw KernelError("layer_norm_grad needs x, gamma of its last axis and a gradient shaped as x");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  LayerNormGradState s;
  s.cols = in[0].shape.back();
  s.rows = s.cols == 0 ? 0 : in[0].numElements() / s.cols;
  s.epsilon = attrs::View<attrs::kernelFamily("LayerNormGrad")>{op}.epsilon();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<LayerNormGradState, runLayerNormGrad<T>>(s);
    else return PreparedKernel{};
  });
}

}  // namespace pir::vm::detail
