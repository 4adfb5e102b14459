// Element-order kernels of the ONNX layout ops the importer composes today:
// pad (constant, reflect, edge), tile, trilu, gather_elements,
// scatter_elements with a reduction, hardmax and range, with the gradients of
// the differentiable ones. Each is a function over contiguous row-major data of
// a given shape, independent of how the op table binds kernels, so that a row
// can bind it as its element function. Shapes are checked by the caller (the
// op's inference); index operands are checked here (KernelError, runtime.md §8).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "ir/op_enums.h"
#include "vm/kernels.h"

namespace pir::vm::layout {

using Dims = std::vector<int64_t>;

inline int64_t product(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

inline Dims stridesOf(const Dims& d) {
  Dims s(d.size(), 1);
  for (size_t k = d.size(); k-- > 1;) s[k - 1] = s[k] * d[k];
  return s;
}

// Calls f(flatOut, index) for every element of `shape` in row-major order.
template <class F> void forEachIndex(const Dims& shape, F&& f) {
  const int64_t n = product(shape);
  if (n == 0) return;
  Dims idx(shape.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    f(flat, idx);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

// Calls f(row, index) for every row of `shape` (its last axis; a scalar is one row of
// one element) in row-major order, `index` the row's coordinates on the other axes.
// The kernels below walk their outputs (or index operands) this way: the index work is
// per row, and the last axis is a plain loop or a copy.
template <class F> void forEachRow(const Dims& shape, F&& f) {
  const int64_t n = product(shape);
  if (n == 0) return;
  const size_t lead = shape.empty() ? 0 : shape.size() - 1;
  const int64_t rows = shape.empty() ? 1 : n / shape[lead];
  Dims idx(lead, 0);
  for (int64_t r = 0; r < rows; ++r) {
    f(r, static_cast<const Dims&>(idx));
    for (size_t d = lead; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

// The length of a row of `shape` (1 for a scalar).
inline int64_t rowLength(const Dims& shape) { return shape.empty() ? 1 : shape.back(); }

// ---- pad --------------------------------------------------------------------

using PadMode = pir::PadMode;  // ir/op_enums.def

// The source position of output position `o` on an axis of length `len` padded
// by `begin` in front, or -1 for a constant-padded position. Reflect mirrors
// without repeating the edge (NumPy's `reflect`); `len` must be > 0 for reflect
// and edge (the inference rejects padding an empty axis in those modes).
inline int64_t padSource(int64_t o, int64_t begin, int64_t len, PadMode mode) {
  int64_t i = o - begin;
  if (i >= 0 && i < len) return i;
  switch (mode) {
    case PadMode::Constant: return -1;
    case PadMode::Edge: return i < 0 ? 0 : len - 1;
    case PadMode::Reflect:
      if (len == 1) return 0;
      {
        const int64_t period = 2 * (len - 1);
        i = ((i % period) + period) % period;
        return i < len ? i : period - i;
      }
  }
  return -1;
}

// The offset in x of the row that output row `o` (coordinates on all axes but the
// last) reads, or -1 when one of those axes is constant-padded there.
inline int64_t padRowSource(const Dims& o, const Dims& xShape, const Dims& xStrides, const Dims& begin, PadMode mode) {
  int64_t off = 0;
  for (size_t d = 0; d < o.size(); ++d) {
    const int64_t i = padSource(o[d], begin[d], xShape[d], mode);
    if (i < 0) return -1;
    off += i * xStrides[d];
  }
  return off;
}

// out has dims x[d] + begin[d] + end[d] (negative pads crop).
template <class T>
void pad(const T* x, const Dims& xShape, const Dims& begin, const Dims& end, PadMode mode, T value, T* out) {
  if (xShape.empty()) {
    out[0] = x[0];
    return;
  }
  Dims outShape(xShape.size());
  for (size_t d = 0; d < xShape.size(); ++d) outShape[d] = xShape[d] + begin[d] + end[d];
  const Dims xs = stridesOf(xShape);
  const int64_t n = outShape.back(), len = xShape.back(), b = begin.back();
  // Positions [lo, hi) of a row read x's row at k - b; the others go through padSource.
  const int64_t lo = std::clamp<int64_t>(b, 0, n), hi = std::clamp<int64_t>(b + len, lo, n);
  forEachRow(outShape, [&](int64_t row, const Dims& o) {
    T* y = out + row * n;
    const int64_t off = padRowSource(o, xShape, xs, begin, mode);
    if (off < 0) {
      std::fill(y, y + n, value);
      return;
    }
    const T* xr = x + off;
    auto edge = [&](int64_t k) {
      const int64_t i = padSource(k, b, len, mode);
      y[k] = i < 0 ? value : xr[i];
    };
    for (int64_t k = 0; k < lo; ++k) edge(k);
    std::copy(xr + (lo - b), xr + (hi - b), y + lo);
    for (int64_t k = hi; k < n; ++k) edge(k);
  });
}

// dx = the sum of g over the output positions that read each x element, added in the
// order of the output positions.
template <class T>
void padGrad(const T* g, const Dims& xShape, const Dims& begin, const Dims& end, PadMode mode, T* dx) {
  std::fill(dx, dx + product(xShape), T(0));
  if (xShape.empty()) {
    dx[0] += g[0];
    return;
  }
  Dims outShape(xShape.size());
  for (size_t d = 0; d < xShape.size(); ++d) outShape[d] = xShape[d] + begin[d] + end[d];
  const Dims xs = stridesOf(xShape);
  const int64_t n = outShape.back(), len = xShape.back(), b = begin.back();
  const int64_t lo = std::clamp<int64_t>(b, 0, n), hi = std::clamp<int64_t>(b + len, lo, n);
  forEachRow(outShape, [&](int64_t row, const Dims& o) {
    const int64_t off = padRowSource(o, xShape, xs, begin, mode);
    if (off < 0) return;
    const T* gr = g + row * n;
    T* dr = dx + off;
    auto edge = [&](int64_t k) {
      const int64_t i = padSource(k, b, len, mode);
      if (i >= 0) dr[i] += gr[k];
    };
    for (int64_t k = 0; k < lo; ++k) edge(k);
    for (int64_t k = lo; k < hi; ++k) dr[k - b] += gr[k];
    for (int64_t k = hi; k < n; ++k) edge(k);
  });
}

// ---- tile -------------------------------------------------------------------

template <class T> void tile(const T* x, const Dims& xShape, const Dims& repeats, T* out) {
  Dims outShape(xShape.size());
  for (size_t d = 0; d < xShape.size(); ++d) outShape[d] = xShape[d] * repeats[d];
  const Dims xs = stridesOf(xShape);
  const int64_t n = rowLength(outShape), len = rowLength(xShape);
  forEachRow(outShape, [&](int64_t row, const Dims& o) {
    int64_t off = 0;
    for (size_t d = 0; d < o.size(); ++d) off += (o[d] % xShape[d]) * xs[d];
    T* y = out + row * n;
    for (int64_t k = 0; k < n; k += len) std::copy(x + off, x + off + len, y + k);
  });
}

// dx = the sum of g over the tiles, added in the order of g.
template <class T> void tileGrad(const T* g, const Dims& xShape, const Dims& repeats, T* dx) {
  Dims outShape(xShape.size());
  for (size_t d = 0; d < xShape.size(); ++d) outShape[d] = xShape[d] * repeats[d];
  std::fill(dx, dx + product(xShape), T(0));
  const Dims xs = stridesOf(xShape);
  const int64_t n = rowLength(outShape), len = rowLength(xShape);
  forEachRow(outShape, [&](int64_t row, const Dims& o) {
    int64_t off = 0;
    for (size_t d = 0; d < o.size(); ++d) off += (o[d] % xShape[d]) * xs[d];
    const T* gr = g + row * n;
    T* dr = dx + off;
    for (int64_t k = 0; k < n; k += len)
      for (int64_t i = 0; i < len; ++i) dr[i] += gr[k + i];
  });
}

// ---- trilu ------------------------------------------------------------------

// Keeps the elements of the last two axes (row r, column c) with c - r >= k
// (upper) or c - r <= k (lower) and zeroes the rest. Its gradient is trilu of g.
template <class T> void trilu(const T* x, const Dims& shape, bool upper, int64_t k, T* out) {
  const size_t r = shape.size();
  const int64_t rows = shape[r - 2], cols = shape[r - 1];
  const int64_t mats = rows * cols != 0 ? product(shape) / (rows * cols) : 0;
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t at = (m * rows + i) * cols + j;
        const bool keep = upper ? j - i >= k : j - i <= k;
        out[at] = keep ? x[at] : T(0);
      }
}

// ---- gather_elements / scatter_elements -------------------------------------------

inline int64_t elementIndex(int64_t idx, int64_t dim) {
  if (idx < -dim || idx >= dim)
    throw KernelError("index " + std::to_string(idx) + " is out of range for an axis of size " + std::to_string(dim));
  return idx < 0 ? idx + dim : idx;
}

// The offset in x of a row of the index operand (coordinates `i` on all axes but the
// last), leaving out `axis`, whose coordinate comes from the indices.
inline int64_t rowBase(const Dims& i, const Dims& xStrides, int64_t axis) {
  int64_t off = 0;
  for (size_t d = 0; d < i.size(); ++d)
    if (static_cast<int64_t>(d) != axis) off += i[d] * xStrides[d];
  return off;
}

// Calls f(flat, offset in x) for every element of the index operand in order, the
// offset reading index `indices[flat]` on `axis` (checked: KernelError).
template <class I, class F>
void forEachElementOffset(const Dims& xShape, const I* indices, const Dims& indexShape, int64_t axis, F&& f) {
  const Dims xs = stridesOf(xShape);
  const int64_t n = rowLength(indexShape);
  const bool lastAxis = axis + 1 == static_cast<int64_t>(xShape.size());
  const int64_t axisLen = xShape.empty() ? 1 : xShape[static_cast<size_t>(axis)];
  const int64_t axisStride = xShape.empty() ? 1 : xs[static_cast<size_t>(axis)];
  forEachRow(indexShape, [&](int64_t row, const Dims& i) {
    const int64_t base = rowBase(i, xs, axis);
    const I* ind = indices + row * n;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t at = elementIndex(static_cast<int64_t>(ind[k]), axisLen) * axisStride;
      f(row * n + k, base + (lastAxis ? at : at + k));
    }
  });
}

// out[i] = x[i with axis coordinate indices[i]]; out has indices' shape.
template <class T, class I>
void gatherElements(const T* x, const Dims& xShape, const I* indices, const Dims& indexShape, int64_t axis, T* out) {
  forEachElementOffset(xShape, indices, indexShape, axis, [&](int64_t flat, int64_t off) { out[flat] = x[off]; });
}

using ScatterReduction = pir::ScatterReduction;  // ir/op_enums.def

// out = x, then each updates[i] combined into out at (i with axis coordinate
// indices[i]); with `None` a later update of the same element wins (ONNX leaves
// the order unspecified; this is index order). out may alias x.
template <class T, class I>
void scatterElements(const T* x, const Dims& xShape, const I* indices, const T* updates, const Dims& indexShape,
                     int64_t axis, ScatterReduction reduction, T* out) {
  if (out != x) std::copy(x, x + product(xShape), out);
  auto each = [&](auto combine) {
    forEachElementOffset(xShape, indices, indexShape, axis,
                         [&](int64_t flat, int64_t off) { out[off] = combine(out[off], updates[flat]); });
  };
  switch (reduction) {
    case ScatterReduction::None: return each([](T, T u) { return u; });
    case ScatterReduction::Add: return each([](T o, T u) { return static_cast<T>(o + u); });
    case ScatterReduction::Mul:
      if constexpr (std::is_same_v<T, bool>) return each([](T o, T u) { return o && u; });  // a product of truth values
      else return each([](T o, T u) { return static_cast<T>(o * u); });
    case ScatterReduction::Min: return each([](T o, T u) { return std::min(o, u); });
    case ScatterReduction::Max: return each([](T o, T u) { return std::max(o, u); });
  }
}

// ---- hardmax ----------------------------------------------------------------

// 1 at the first largest element along `axis`, 0 elsewhere (ONNX Hardmax-13).
// A NaN is the largest (the first NaN wins), as for argmax (NumPy).
template <class T> void hardmax(const T* x, const Dims& shape, int64_t axis, T* out) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t len = shape[axis];
  std::fill(out, out + outer * len * inner, T(0));
  if (len == 0) return;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      const T* row = x + o * len * inner + in;
      int64_t best = 0;
      for (int64_t k = 1; k < len; ++k) {
        const T b = row[best * inner], v = row[k * inner];
        if (b != b) break;
        if (v != v || v > b) best = k;
      }
      out[o * len * inner + best * inner + in] = T(1);
    }
}

// ---- range ------------------------------------------------------------------

// ONNX Range's element count: max(ceil((limit - start) / delta), 0).
inline int64_t rangeLength(double start, double limit, double delta) {
  if (delta == 0) return 0;
  const double n = std::ceil((limit - start) / delta);
  return n > 0 ? static_cast<int64_t>(n) : 0;
}

template <class T> void range(T start, T delta, int64_t n, T* out) {
  for (int64_t k = 0; k < n; ++k) out[k] = static_cast<T>(start + static_cast<T>(k) * delta);
}

}  // namespace pir::vm::layout
