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

namespace detail {
// d[c] = bias + alpha/size * window sum of x^2, for one (n, spatial) column.
inline void denominators(const std::vector<double>& col, const Attributes& a, std::vector<double>& d) {
  const int64_t C = static_cast<int64_t>(col.size());
  const int64_t lo = (a.size - 1) / 2, hi = a.size - 1 - lo;
  for (int64_t c = 0; c < C; ++c) {
    double s = 0;
    for (int64_t k = std::max<int64_t>(0, c - lo); k <= std::min<int64_t>(C - 1, c + hi); ++k) s += col[k] * col[k];
    d[c] = a.bias + a.alpha / static_cast<double>(a.size) * s;
  }
}
}  // namespace detail

template <class T> void lrn(const T* x, const std::vector<int64_t>& shape, const Attributes& a, T* y) {
  const Layout l(shape);
  std::vector<double> col(l.channels), d(l.channels);
  for (int64_t n = 0; n < l.outer; ++n)
    for (int64_t i = 0; i < l.inner; ++i) {
      const int64_t base = n * l.channels * l.inner + i;
      for (int64_t c = 0; c < l.channels; ++c) col[c] = static_cast<double>(x[base + c * l.inner]);
      detail::denominators(col, a, d);
      for (int64_t c = 0; c < l.channels; ++c) y[base + c * l.inner] = static_cast<T>(col[c] * std::pow(d[c], -a.beta));
    }
}

// dx[i] = g[i] d[i]^-beta - 2 alpha beta / size * x[i] * sum_{j: i in W(j)} g[j] x[j] d[j]^(-beta-1)
template <class T> void lrnGrad(const T* x, const T* g, const std::vector<int64_t>& shape, const Attributes& a, T* dx) {
  const Layout l(shape);
  const int64_t lo = (a.size - 1) / 2, hi = a.size - 1 - lo;
  std::vector<double> col(l.channels), gc(l.channels), d(l.channels), t(l.channels);
  for (int64_t n = 0; n < l.outer; ++n)
    for (int64_t i = 0; i < l.inner; ++i) {
      const int64_t base = n * l.channels * l.inner + i;
      for (int64_t c = 0; c < l.channels; ++c) {
        col[c] = static_cast<double>(x[base + c * l.inner]);
        gc[c] = static_cast<double>(g[base + c * l.inner]);
      }
      detail::denominators(col, a, d);
      for (int64_t j = 0; j < l.channels; ++j) t[j] = gc[j] * col[j] * std::pow(d[j], -a.beta - 1);
      const double k = 2 * a.alpha * a.beta / static_cast<double>(a.size);
      for (int64_t c = 0; c < l.channels; ++c) {
        double s = 0;  // over the j whose window holds c: c - hi <= j <= c + lo
        for (int64_t j = std::max<int64_t>(0, c - hi); j <= std::min<int64_t>(l.channels - 1, c + lo); ++j) s += t[j];
        dx[base + c * l.inner] = static_cast<T>(gc[c] * std::pow(d[c], -a.beta) - k * col[c] * s);
      }
    }
}

}  // namespace pir::vm::lrn
