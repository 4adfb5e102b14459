// The window geometry of conv, the pools and their gradient kernels: ir/window.h's
// resolution with the spatial sizes padded to 3 dims by leading size-1 dims.
#pragma once
#include <array>

#include "ir/window.h"
#include "vm/kernel_util.h"

namespace pir::vm::detail {

struct Window {
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1},
      padBegin{0, 0, 0};
  // Per axis and output position, the window's cells inside the padded input
  // (ir/window.h cellsInsidePadding): average_pool's count_include_pad divisor.
  std::array<std::vector<int64_t>, 3> cellsInsidePadding{std::vector<int64_t>{1}, std::vector<int64_t>{1},
                                                         std::vector<int64_t>{1}};
  // Per axis and output position, the window's cells inside the input (not padding):
  // their product over the axes is the number of a window's real cells, average_pool's
  // divisor without count_include_pad.
  std::array<std::vector<int64_t>, 3> realCells{std::vector<int64_t>{1}, std::vector<int64_t>{1},
                                                std::vector<int64_t>{1}};
  // Per kernel column kw, the output columns [lo, hi) whose cell at column offset
  // kw * dilation[2] - padBegin[2] lies in the input (inBounds), computed once for a
  // kernel of at most kTabledKernelColumns columns (else per use): the pools walk
  // them for every output row, and two integer divisions per cell and row cost more
  // than the cell's arithmetic.
  struct ColumnRange {
    int64_t offset, lo, hi;
  };
  static constexpr int64_t kTabledKernelColumns = 1024;
  std::vector<ColumnRange> columnRanges;
  int64_t inSize() const { return in[0] * in[1] * in[2]; }
  int64_t outSize() const { return out[0] * out[1] * out[2]; }
  int64_t kernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// The attributes of every row whose kernel walks a window.
using WindowAttrs = attrs::View<attrs::ops(OpCode::Conv, OpCode::AveragePool, OpCode::MaxPool, OpCode::MaxPoolWithIndices,
                                           OpCode::ConvGradInput,
                                           OpCode::ConvGradWeight, OpCode::MaxPoolGrad, OpCode::AveragePoolGrad,
                                           OpCode::ConvTranspose)>;

// The output columns [lo, hi) of a row whose input column o * stride + offset lies in [0, in).
inline void inBounds(int64_t in, int64_t out, int64_t stride, int64_t offset, int64_t& lo, int64_t& hi) {
  lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  hi = in - offset <= 0 ? 0 : (in - offset - 1) / stride + 1;
  lo = std::min(lo, out);
  hi = std::clamp(hi, lo, out);
}

// The kernel offsets j in [0, kernel) whose cell o * stride - padBegin + j * dilation
// lies in [0, in): one axis's real cells of output position o's window. The window
// fits the padded input (planWindow checked it), so no term overflows.
inline int64_t realCellsAlong(int64_t in, int64_t kernel, int64_t stride, int64_t dilation, int64_t padBegin,
                              int64_t o) {
  const int64_t base = o * stride - padBegin;
  const int64_t first = base >= 0 ? 0 : (-base + dilation - 1) / dilation;
  if (in - 1 - base < 0) return 0;
  const int64_t last = std::min(kernel - 1, (in - 1 - base) / dilation);
  return last >= first ? last - first + 1 : 0;
}

// The window of `op` (resolved by ir/window.h) over the input type `x` (N, C,
// spatial...); `convKernel` is a conv's weights' spatial shape, null for the
// pools (their `kernel` attribute). Throws KernelError.
inline Window planWindow(const Op& op, const TensorType& x, const std::vector<int64_t>* convKernel) {
  const size_t spatial = x.shape.size() - 2;
  std::optional<WindowFault> fault;
  const pir::Window r = resolveWindow(op, spatial, convKernel, fault);
  if (fault) throw KernelError(fault->message);
  Window w;
  const size_t lead = 3 - spatial;
  for (size_t i = 0; i < spatial; ++i) {
    const size_t d = lead + i;
    w.in[d] = x.shape[2 + i];
    w.kernel[d] = r.kernel[i];
    w.stride[d] = r.stride[i];
    w.dilation[d] = r.dilation[i];
    w.padBegin[d] = r.padBegin[i];
    if (r.kernel[i] < 1) throw KernelError("window sizes must be >= 1");
    const pir::Window::Axis a = r.axis(i, w.in[d]);
    if (a.fit != pir::Window::Fit::Fits) throw KernelError("the window is larger than the padded input " + x.str());
    w.out[d] = a.length;
    std::vector<int64_t>& inside = w.cellsInsidePadding[d];
    inside.resize(static_cast<size_t>(a.length));
    for (int64_t o = 0; o < a.length; ++o) inside[static_cast<size_t>(o)] = r.cellsInsidePadding(i, w.in[d], o);
    std::vector<int64_t>& real = w.realCells[d];
    real.resize(static_cast<size_t>(a.length));
    for (int64_t o = 0; o < a.length; ++o)
      real[static_cast<size_t>(o)] = realCellsAlong(w.in[d], w.kernel[d], w.stride[d], w.dilation[d], w.padBegin[d], o);
  }
  if (w.kernel[2] <= Window::kTabledKernelColumns) {
    w.columnRanges.resize(static_cast<size_t>(w.kernel[2]));
    for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
      Window::ColumnRange& r = w.columnRanges[static_cast<size_t>(kw)];
      r.offset = kw * w.dilation[2] - w.padBegin[2];
      inBounds(w.in[2], w.out[2], w.stride[2], r.offset, r.lo, r.hi);
    }
  }
  return w;
}

// The gradient operand must have the forward output's shape (the verifier checks it too):
// g is [n, c, out...] of the window `w`.
inline void requireOutputShape(const TensorType& g, int64_t n, int64_t c, const Window& w) {
  const size_t spatial = g.shape.size() - 2;
  bool same = g.shape[0] == n && g.shape[1] == c;
  for (size_t i = 0; i < spatial; ++i) same = same && g.shape[2 + i] == w.out[3 - spatial + i];
  if (!same) throw KernelError("the gradient " + g.str() + " does not match the forward output");
}

// True if every window is 2x2 over the last two dims at stride 2 (1 over the first),
// undilated, unpadded and inside the input: the tiling of max_pool {kernel = [2, 2]}
// that vm/simd_kernels.h's maxPool2x2 loops take, with in[0] * planes planes.
inline bool isTiled2x2(const Window& w) {
  return w.kernel == std::array<int64_t, 3>{1, 2, 2} && w.stride == std::array<int64_t, 3>{1, 2, 2} &&
         w.dilation == std::array<int64_t, 3>{1, 1, 1} && w.padBegin == std::array<int64_t, 3>{0, 0, 0} &&
         w.out[0] == w.in[0] && 2 * w.out[1] <= w.in[1] && 2 * w.out[2] <= w.in[2];
}


// Calls cell(rowOffset, lo, hi, offset) for each kernel cell, row-major, of the windows
// of output row (od, oh) whose input row is real (not padding): output column o reads
// plane[rowOffset + o * stride[2] + offset] for o in [lo, hi); the others see padding.
// Walking a whole output row per cell keeps each output's cells in row-major order.
template <class F> void forEachKernelCell(const Window& w, int64_t od, int64_t oh, F&& cell) {
  for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
    const int64_t id = od * w.stride[0] - w.padBegin[0] + kd * w.dilation[0];
    if (id < 0 || id >= w.in[0]) continue;
    for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
      const int64_t ih = oh * w.stride[1] - w.padBegin[1] + kh * w.dilation[1];
      if (ih < 0 || ih >= w.in[1]) continue;
      const int64_t row = (id * w.in[1] + ih) * w.in[2];
      if (!w.columnRanges.empty()) {
        for (const Window::ColumnRange& r : w.columnRanges) cell(row, r.lo, r.hi, r.offset);
        continue;
      }
      for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
        const int64_t offset = kw * w.dilation[2] - w.padBegin[2];
        int64_t lo, hi;
        inBounds(w.in[2], w.out[2], w.stride[2], offset, lo, hi);
        cell(row, lo, hi, offset);
      }
    }
  }
}

}  // namespace pir::vm::detail
