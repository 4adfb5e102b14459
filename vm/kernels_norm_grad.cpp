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
#include "vm/norm_row.h"

namespace pir::vm::detail {
namespace {

struct LayerNormGradState {
  int64_t rows = 0, cols = 0;
  double epsilon = 1e-5;
};

// The rows of one part: per row a few vector passes over row-sized scratch (in L1
// for usual widths); the sums are the SIMD table's (16 interleaved partials), not one
// serial chain. Each row's g * xhat goes to `gx` (its row of a [rows, cols] array)
// when given, else is added to dgamma and g to dbeta, row by row.
template <class T> struct LayerNormGradRows {
  using C = ComputeOf<T>;
  const LayerNormGradState& s;
  const C* gamma;
  const T* x;
  const T* g;
  T* dx;
  void run(int64_t r0, int64_t r1, C* gx, C* dgamma, C* dbeta) const {
    const auto& f = simd::tableOf<C>();
    const int64_t cols = s.cols;
    const size_t n = static_cast<size_t>(cols);
    std::vector<C> xhat(n), tmp(n), xrow, grow, dxrow;
    if constexpr (!std::is_same_v<T, C>) xrow.resize(n), grow.resize(n), dxrow.resize(n);
    const C eps = static_cast<C>(s.epsilon);
    constexpr int kVV = simd::kVecVec;
    for (int64_t r = r0; r < r1; ++r) {
      const T* xs = x + r * cols;
      const T* gs = g + r * cols;
      T* dxs = dx + r * cols;
      const C* xr;
      const C* gr;
      C* out;
      if constexpr (std::is_same_v<T, C>) {
        xr = xs, gr = gs, out = dxs;
      } else {
        for (size_t j = 0; j < n; ++j) xrow[j] = static_cast<C>(xs[j]), grow[j] = static_cast<C>(gs[j]);
        xr = xrow.data(), gr = grow.data(), out = dxrow.data();
      }
      const C rstd = normaliseRow(xr, cols, eps, xhat.data());
      if (gx) {
        f.binary[simd::kMul][kVV](gr, xhat.data(), gx + r * cols, cols);
      } else {
        f.binary[simd::kMul][kVV](gr, xhat.data(), tmp.data(), cols);
        f.binary[simd::kAdd][kVV](dgamma, tmp.data(), dgamma, cols);
        f.binary[simd::kAdd][kVV](dbeta, gr, dbeta, cols);
      }
      f.layerNormGradRow(xhat.data(), gr, gamma, cols, rstd, out);
      if constexpr (!std::is_same_v<T, C>)
        for (size_t j = 0; j < n; ++j) dxs[j] = static_cast<T>(dxrow[j]);
    }
  }
};

// Large f32/f64 operands split their rows over the kernel threads; dgamma and dbeta
// are then summed from the rows' g * xhat and g afterwards, in row order, with the
// same additions as the one-thread path (split by columns), so the bits do not depend
// on the split.
template <class T>
void runLayerNormGrad(const LayerNormGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const auto& f = simd::tableOf<C>();
  const int64_t cols = s.cols;
  const size_t n = static_cast<size_t>(cols);
  const bool split = std::is_same_v<T, C> && simd::kernelThreads() > 1 &&
                     s.rows * cols >= 2 * kMinElementsPerThread && s.rows >= 2;
  const uint64_t threads = split ? static_cast<uint64_t>(simd::kernelThreads()) : 1;
  // gamma, dgamma, dbeta; per part the rows of LayerNormGradRows::run; when split, gx.
  const ScratchCharge charge(saturatingMul(n, 3 + 5 * threads) + (split ? saturatingMul(n, static_cast<uint64_t>(s.rows)) : 0),
                             sizeof(C));
  std::vector<C> gamma(n), dgamma(n, C(0)), dbeta(n, C(0));
  for (int64_t j = 0; j < cols; ++j) gamma[static_cast<size_t>(j)] = static_cast<C>(ins[1].as<const T>()[j]);
  const LayerNormGradRows<T> rows{s, gamma.data(), ins[0].as<const T>(), ins[2].as<const T>(), outs[0].as<T>()};
  if (!split) {
    rows.run(0, s.rows, nullptr, dgamma.data(), dbeta.data());
  } else if constexpr (std::is_same_v<T, C>) {
    std::vector<C> gx(n * static_cast<size_t>(s.rows));
    splitRows(s.rows, cols, [&](int64_t r0, int64_t r1) { rows.run(r0, r1, gx.data(), nullptr, nullptr); });
    const C* g = ins[2].as<const T>();
    splitColumns(s.rows * cols, cols, [&](int64_t c0, int64_t c1) {
      for (int64_t r = 0; r < s.rows; ++r) {
        f.binary[simd::kAdd][simd::kVecVec](dgamma.data() + c0, gx.data() + r * cols + c0, dgamma.data() + c0, c1 - c0);
        f.binary[simd::kAdd][simd::kVecVec](dbeta.data() + c0, g + r * cols + c0, dbeta.data() + c0, c1 - c0);
      }
    });
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
