// layer_norm_grad: the gradients of layer_norm (normalised over the dims from `axis`,
// one flattened row) for x, gamma and beta, one row at a time in one kernel:
//   xhat = (x - mean) * rstd,  rstd = 1 / sqrt(var + epsilon)  (biased variance)
//   dxhat = g * gamma
//   dx = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) * rstd
//   dgamma = Σ_rows g * xhat,  dbeta = Σ_rows g   (rows summed in order)
// Float dtypes; f16 computes in f32. Every sum runs in an order fixed by the shape
// (rows in order; within a row the SIMD table's documented order), so the bits do not
// depend on the number of threads.
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

struct LayerNormGradState {
  int64_t rows = 0, cols = 0;
  double epsilon = 1e-5;
};

// The SIMD loops of the compute type (vm/simd_kernels.h).
template <class C> const simd::TypedTable<C>& simdTable() {
  if constexpr (std::is_same_v<C, float>) return simd::table().f32;
  else return simd::table().f64;
}

// Each row runs as a few vector passes over row-sized scratch (in L1 for usual widths):
// the sums are the SIMD table's (16 interleaved partials), not one serial chain.
template <class T>
void runLayerNormGrad(const LayerNormGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const auto& f = simdTable<C>();
  const int64_t cols = s.cols;
  const T* x = ins[0].as<const T>();
  const T* g = ins[2].as<const T>();
  T* dx = outs[0].as<T>();
  const size_t n = static_cast<size_t>(cols);
  const ScratchCharge charge(static_cast<uint64_t>(cols), 9 * sizeof(C));  // the rows below
  std::vector<C> gamma(n), dgamma(n, C(0)), dbeta(n, C(0)), xhat(n), dxhat(n), tmp(n), xrow, grow, dxrow;
  for (int64_t j = 0; j < cols; ++j) gamma[static_cast<size_t>(j)] = static_cast<C>(ins[1].as<const T>()[j]);
  if constexpr (!std::is_same_v<T, C>) xrow.resize(n), grow.resize(n), dxrow.resize(n);
  const C count = static_cast<C>(cols), eps = static_cast<C>(s.epsilon);
  constexpr int kVS = simd::kVecScalar, kVV = simd::kVecVec;
  for (int64_t r = 0; r < s.rows; ++r, x += cols, g += cols, dx += cols) {
    const C* xr;
    const C* gr;
    C* out;
    if constexpr (std::is_same_v<T, C>) {
      xr = x, gr = g, out = dx;
    } else {
      for (size_t j = 0; j < n; ++j) xrow[j] = static_cast<C>(x[j]), grow[j] = static_cast<C>(g[j]);
      xr = xrow.data(), gr = grow.data(), out = dxrow.data();
    }
    const C mean = f.sum(xr, cols) / count;
    f.binary[simd::kSub][kVS](xr, &mean, xhat.data(), cols);  // x - mean
    f.binary[simd::kMul][kVV](xhat.data(), xhat.data(), tmp.data(), cols);
    const C rstd = C(1) / std::sqrt(f.sum(tmp.data(), cols) / count + eps);
    f.binary[simd::kMul][kVS](xhat.data(), &rstd, xhat.data(), cols);  // xhat
    f.binary[simd::kMul][kVV](gr, gamma.data(), dxhat.data(), cols);    // dxhat = g * gamma
    const C m1 = f.sum(dxhat.data(), cols) / count;
    f.binary[simd::kMul][kVV](dxhat.data(), xhat.data(), tmp.data(), cols);
    const C m2 = f.sum(tmp.data(), cols) / count;
    f.binary[simd::kMul][kVV](gr, xhat.data(), tmp.data(), cols);
    f.binary[simd::kAdd][kVV](dgamma.data(), tmp.data(), dgamma.data(), cols);
    f.binary[simd::kAdd][kVV](dbeta.data(), gr, dbeta.data(), cols);
    // dx = (dxhat - m1 - xhat * m2) * rstd
    f.binary[simd::kMul][kVS](xhat.data(), &m2, tmp.data(), cols);
    f.binary[simd::kSub][kVS](dxhat.data(), &m1, dxhat.data(), cols);
    f.binary[simd::kSub][kVV](dxhat.data(), tmp.data(), dxhat.data(), cols);
    f.binary[simd::kMul][kVS](dxhat.data(), &rstd, out, cols);
    if constexpr (!std::is_same_v<T, C>)
      for (size_t j = 0; j < n; ++j) dx[j] = static_cast<T>(dxrow[j]);
  }
  for (int64_t j = 0; j < cols; ++j) {
    outs[1].as<T>()[j] = static_cast<T>(dgamma[static_cast<size_t>(j)]);
    outs[2].as<T>()[j] = static_cast<T>(dbeta[static_cast<size_t>(j)]);
  }
}

}  // namespace

PreparedKernel prepareLayerNormGrad(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 3 || out.size() != 3 || in[0].rank() < 1 || in[2] != in[0] || in[1].dtype != in[0].dtype)
    throw KernelError("layer_norm_grad needs x, gamma of its normalised dims and a gradient shaped as x");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  const attrs::LayerNormGrad attr{op};
  LayerNormGradState s;
  s.cols = layerNormCols(op, in[0], attr.axis());
  if (in[1].numElements() != s.cols)
    throw KernelError("layer_norm_grad needs x, gamma of its normalised dims and a gradient shaped as x");
  s.rows = s.cols == 0 ? 0 : in[0].numElements() / s.cols;
  s.epsilon = attr.epsilon();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<LayerNormGradState, runLayerNormGrad<T>>(s);
    else return PreparedKernel{};
  });
}

}  // namespace pir::vm::detail
