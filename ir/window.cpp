#include "ir/window.h"

#include "ir/checked_math.h"
#include "ir/op_attrs.h"

namespace pir {

namespace {

// Every row with window attributes.
using WindowAttrs = attrs::View<attrs::ops(OpCode::Conv, OpCode::AveragePool, OpCode::MaxPool, OpCode::ConvGradInput,
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
  if (span < 0) return r.fit = Fit::TooLarge, r;
  r.length = span / stride[i] + 1;
  return r;
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
    w.dilation = ones;
  }
  const std::vector<int64_t> padding = spatial<"padding">(a, 2 * n, std::vector<int64_t>(2 * n, 0), 0, fault);
  w.padBegin.assign(padding.begin(), padding.begin() + static_cast<ptrdiff_t>(n));
  w.padEnd.assign(padding.begin() + static_cast<ptrdiff_t>(n), padding.end());
  return w;
}

}  // namespace pir
