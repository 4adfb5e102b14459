#include "ir/window.h"

#include <algorithm>

#include "ir/checked_math.h"
#include "ir/op_attrs.h"

namespace pir {

namespace {

// Every row with window attributes.
using WindowAttrs = attrs::View<attrs::ops(OpCode::Conv, OpCode::AveragePool, OpCode::MaxPool, OpCode::MaxPoolWithIndices,
                                           OpCode::ConvGradInput,
                                           OpCode::ConvGradWeight, OpCode::MaxPoolGrad, OpCode::AveragePoolGrad,
                                           OpCode::ConvTranspose)>;

// As the shape rules write a list in messages: [1,2].
std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// Spatial attribute `Key`: `count` values (one written value spreads), else
// `fallback` when absent; every value at least `minValue`.
template <attrs::Name Key>
std::vector<int64_t> spatial(const WindowAttrs& a, size_t count, const std::vector<int64_t>& fallback, int64_t minValue,
                             std::optional<WindowFault>& fault) {
  std::optional<std::vector<int64_t>> v = a.get<Key>();
  if (!v) return fallback;
  if (fault) return fallback;
  const std::string key(Key.view());
  if (v->size() == 1 && count > 1) v->assign(count, (*v)[0]);
  if (v->size() != count) {
    fault = WindowFault{a.loc<Key>(), "attribute '" + key + "' needs " + std::to_string(count) + " values, got " + listText(*v)};
    return fallback;
  }
  for (int64_t x : *v)
    if (x < minValue) {
      fault = WindowFault{a.loc<Key>(), "attribute '" + key + "' values must be >= " + std::to_string(minValue) +
                                            ", got " + listText(*v)};
      return fallback;
    }
  return *v;
}

}  // namespace

std::vector<int64_t> Window::padding() const {
  std::vector<int64_t> p = padBegin;
  p.insert(p.end(), padEnd.begin(), padEnd.end());
  return p;
}

Window::Axis Window::axis(size_t i, int64_t in) const {
  Axis r;
  if (kernel[i] == 0) {
    r.extent = 0;
  } else {
    const std::optional<int64_t> reach = checkedMul(dilation[i], kernel[i] - 1);
    if (!reach || *reach == INT64_MAX) return r.fit = Fit::ExtentOverflow, r;
    r.extent = *reach + 1;
  }
  std::optional<int64_t> padded = checkedAdd(in, padBegin[i]);
  if (padded) padded = checkedAdd(*padded, padEnd[i]);
  if (!padded) return r.fit = Fit::PaddingOverflow, r;
  const int64_t span = *padded - r.extent;
  if (!ceilMode) {
    if (span < 0) return r.fit = Fit::TooLarge, r;
    r.length = span / stride[i] + 1;
    return r;
  }
  // ceil(span / stride) + 1, rounding toward -inf for a negative span: a window
  // longer than the padded input by less than a stride still gives one output.
  const int64_t steps = span >= 0 ? span / stride[i] + (span % stride[i] != 0) : -((-span) / stride[i]);
  int64_t length = steps + 1;
  // The last window must start inside the input or the begin padding (ONNX, PyTorch).
  // (length - 1) * stride >= in + padBegin, without the product (in + padBegin fits:
  // it is at most the padded length).
  const int64_t starts = in + padBegin[i];
  if (length > 0 && length - 1 >= starts / stride[i] + (starts % stride[i] != 0)) --length;
  if (length <= 0) return r.fit = Fit::TooLarge, r;
  r.length = length;
  return r;
}

int64_t Window::cellsInsidePadding(size_t i, int64_t in, int64_t o) const {
  // Cell k sits at start + k * dilation, start = o * stride - padBegin; it counts
  // when it is below in + padEnd (it is never before -padBegin).
  const int64_t start = o * stride[i] - padBegin[i];
  const int64_t room = in + padEnd[i] - start;  // > 0 for every output window
  if (room <= 0) return 0;
  return std::min(kernel[i], (room - 1) / dilation[i] + 1);
}

Window resolveWindow(const Op& op, size_t n, const std::vector<int64_t>* convKernel, std::optional<WindowFault>& fault) {
  const WindowAttrs a{op};
  Window w;
  const std::vector<int64_t> ones(n, 1);
  if (convKernel) {
    w.kernel = *convKernel;
    w.stride = spatial<"stride">(a, n, ones, 1, fault);
    w.dilation = spatial<"dilation">(a, n, ones, 1, fault);
  } else {
    w.kernel = spatial<"kernel">(a, n, ones, 1, fault);
    w.stride = spatial<"stride">(a, n, w.kernel, 1, fault);
    w.dilation = spatial<"dilation">(a, n, ones, 1, fault);
    w.ceilMode = a.ceil_mode().value_or(false);
  }
  const std::vector<int64_t> padding = spatial<"padding">(a, 2 * n, std::vector<int64_t>(2 * n, 0), 0, fault);
  w.padBegin.assign(padding.begin(), padding.begin() + static_cast<ptrdiff_t>(n));
  w.padEnd.assign(padding.begin() + static_cast<ptrdiff_t>(n), padding.end());
  return w;
}

}  // namespace pir
