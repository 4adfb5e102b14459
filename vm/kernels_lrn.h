// lrn (ONNX LRN, AlexNet's local response normalisation) across channels (axis 1):
//   y[n,c,...] = x[n,c,...] / (bias + alpha / size * sum_{c' in W(c)} x[n,c',...]^2) ^ beta
// with W(c) = [c - floor((size-1)/2), c + ceil((size-1)/2)] clipped to the channels,
// and its gradient. Computed in double, stored in T. Independent of how the op
// table binds kernels.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "vm/simd_kernels.h"

namespace pir::vm::lrn {

struct Attributes {
  double alpha = 1e-4, beta = 0.75, bias = 1.0;
  int64_t size = 1;
};

// x viewed as [outer, channels, inner].
struct Layout {
  int64_t outer = 1, channels = 1, inner = 1;
  explicit Layout(const std::vector<int64_t>& shape) {
    outer = shape.empty() ? 1 : shape[0];
    channels = shape.size() > 1 ? shape[1] : 1;
    for (size_t d = 2; d < shape.size(); ++d) inner *= shape[d];
  }
};

// Columns (positions of `inner`) are processed kColumnBlock at a time: each step below
// is then a loop along contiguous memory, and d^-beta = exp(-beta log d) runs through
// the vectorised f64 exp and log (vm/simd_kernels.h) instead of a pow per element.
inline constexpr int64_t kColumnBlock = 64;

// The doubles the kernels keep (the caller charges them): per block, rows of
// kColumnBlock per channel.
inline int64_t scratchDoubles(const Layout& l) { return 5 * l.channels * kColumnBlock; }

namespace detail {

// The block's rows: x, x^2 (and g) per channel, in double.
struct Block {
  int64_t columns = 0;  // of this block
  std::vector<double> x, sq, g, p, t;
  explicit Block(const Layout& l)
      : x(static_cast<size_t>(l.channels * kColumnBlock)),
        sq(x.size()),
        g(x.size()),
        p(x.size()),
        t(x.size()) {}
};

// p[c] = d[c]^-beta for every channel c of the block, d[c] = bias + alpha/size * (the
// sum over c's window of x^2, in channel order); dOut (optional) receives d.
inline void powers(const Layout& l, const Attributes& a, Block& b, double* dOut) {
  const int64_t C = l.channels, n = b.columns, lo = (a.size - 1) / 2, hi = a.size - 1 - lo;
  const double scale = a.alpha / static_cast<double>(a.size);
  const auto& f64 = simd::tableOf<double>();
  for (int64_t c = 0; c < C; ++c) {
    double* p = b.p.data() + c * kColumnBlock;
    std::fill(p, p + n, 0.0);
    for (int64_t k = std::max<int64_t>(0, c - lo); k <= std::min<int64_t>(C - 1, c + hi); ++k) {
      const double* sq = b.sq.data() + k * kColumnBlock;
      for (int64_t i = 0; i < n; ++i) p[i] += sq[i];
    }
    for (int64_t i = 0; i < n; ++i) p[i] = a.bias + scale * p[i];
    if (dOut) std::copy(p, p + n, dOut + c * kColumnBlock);
    if (a.beta == 0) {  // d^0 = 1 for every d, inf and 0 included (as pow)
      std::fill(p, p + n, 1.0);
      continue;
    }
    f64.unary[simd::kLog](p, p, n);
    for (int64_t i = 0; i < n; ++i) p[i] *= -a.beta;
    f64.unary[simd::kExp](p, p, n);
  }
}

// Reads the block of columns [i0, i0 + columns) of row n of x (and g) into doubles.
template <class T>
void load(const Layout& l, const T* src, int64_t n, int64_t i0, int64_t columns, std::vector<double>& dst) {
  for (int64_t c = 0; c < l.channels; ++c) {
    const T* row = src + (n * l.channels + c) * l.inner + i0;
    double* out = dst.data() + c * kColumnBlock;
    for (int64_t i = 0; i < columns; ++i) out[i] = static_cast<double>(row[i]);
  }
}

}  // namespace detail

template <class T> void lrn(const T* x, const std::vector<int64_t>& shape, const Attributes& a, T* y) {
  const Layout l(shape);
  detail::Block b(l);
  for (int64_t n = 0; n < l.outer; ++n)
    for (int64_t i0 = 0; i0 < l.inner; i0 += kColumnBlock) {
      b.columns = std::min(kColumnBlock, l.inner - i0);
      detail::load(l, x, n, i0, b.columns, b.x);
      for (size_t k = 0; k < b.x.size(); ++k) b.sq[k] = b.x[k] * b.x[k];
      detail::powers(l, a, b, nullptr);
      for (int64_t c = 0; c < l.channels; ++c) {
        const double* xc = b.x.data() + c * kColumnBlock;
        const double* pc = b.p.data() + c * kColumnBlock;
        T* out = y + (n * l.channels + c) * l.inner + i0;
        for (int64_t i = 0; i < b.columns; ++i) out[i] = static_cast<T>(xc[i] * pc[i]);
      }
    }
}

// dx[i] = g[i] d[i]^-beta - 2 alpha beta / size * x[i] * sum_{j: i in W(j)} g[j] x[j] d[j]^(-beta-1),
// with d^(-beta-1) = d^-beta / d.
template <class T> void lrnGrad(const T* x, const T* g, const std::vector<int64_t>& shape, const Attributes& a, T* dx) {
  const Layout l(shape);
  const int64_t C = l.channels, lo = (a.size - 1) / 2, hi = a.size - 1 - lo;
  const double k2 = 2 * a.alpha * a.beta / static_cast<double>(a.size);
  detail::Block b(l);
  std::vector<double>& d = b.t;  // d first, then t = g x d^(-beta-1) in place
  for (int64_t n = 0; n < l.outer; ++n)
    for (int64_t i0 = 0; i0 < l.inner; i0 += kColumnBlock) {
      const int64_t m = b.columns = std::min(kColumnBlock, l.inner - i0);
      detail::load(l, x, n, i0, m, b.x);
      detail::load(l, g, n, i0, m, b.g);
      for (size_t k = 0; k < b.x.size(); ++k) b.sq[k] = b.x[k] * b.x[k];
      detail::powers(l, a, b, d.data());
      for (size_t k = 0; k < b.x.size(); ++k) d[k] = b.g[k] * b.x[k] * (b.p[k] / d[k]);
      for (int64_t c = 0; c < C; ++c) {
        double* s = b.sq.data() + c * kColumnBlock;  // x^2 is no longer needed: the window sum of t
        std::fill(s, s + m, 0.0);
        for (int64_t j = std::max<int64_t>(0, c - hi); j <= std::min<int64_t>(C - 1, c + lo); ++j) {
          const double* t = d.data() + j * kColumnBlock;
          for (int64_t i = 0; i < m; ++i) s[i] += t[i];
        }
      }
      for (int64_t c = 0; c < C; ++c) {
        const size_t at = static_cast<size_t>(c * kColumnBlock);
        T* out = dx + (n * C + c) * l.inner + i0;
        for (int64_t i = 0; i < m; ++i)
          out[i] = static_cast<T>(b.g[at + i] * b.p[at + i] - k2 * b.x[at + i] * b.sq[at + i]);
      }
    }
}

}  // namespace pir::vm::lrn
