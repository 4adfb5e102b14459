#include "vm/format.h"
#include "vm/tensor.h"

#include <cstring>
#include <limits>

#include "ir/half.h"
#include "ir/number_format.h"

namespace pir::vm {
namespace {


struct Printer {
  std::string& out;
  DType dtype;
  const Shape& shape;
  const void* data;
  bool summarise;
  std::vector<int64_t> strides;  // row-major element strides

  void printAxis(size_t axis, int64_t offset) {
    if (axis == shape.size()) {
      appendNumber(out, loadElement(data, dtype, offset), dtype);
      return;
    }
    const int64_t length = shape[axis];
    out += '[';
    const bool elide = summarise && length > 2 * kSummaryEdgeItems;
    bool first = true;
    auto item = [&](int64_t index) {
      if (!first) out += ", ";
      first = false;
      printAxis(axis + 1, offset + index * strides[axis]);
    };
    if (elide) {
      for (int64_t i = 0; i < kSummaryEdgeItems; ++i) item(i);
      out += ", ...";
      for (int64_t i = length - kSummaryEdgeItems; i < length; ++i) item(i);
    } else {
      for (int64_t i = 0; i < length; ++i) item(i);
    }
    out += ']';
  }
};

// Lists printed for a tensor of zero elements: one per index of the axes before
// the first 0 (f32[1e14, 0] prints 1e14 `[]`s unless summarised). Saturating.
int64_t emptyListCount(const Shape& shape) {
  int64_t lists = 1;
  for (int64_t d : shape) {
    if (d == 0) break;
    lists = d > 0 && lists > std::numeric_limits<int64_t>::max() / d ? std::numeric_limits<int64_t>::max() : lists * d;
  }
  return lists;
}

}  // namespace

// Summarised when the elements, or (for a zero-size tensor) the empty lists, are
// more than the threshold: printing is bounded by what is printed.
void appendTensor(std::string& out, DType dtype, const Shape& shape, const void* data) {
  const int64_t n = numElements(shape);
  const bool summarise = n > kSummariseThreshold || (n == 0 && emptyListCount(shape) > kSummariseThreshold);
  Printer printer{out, dtype, shape, data, summarise, {}};
  // No element is read when n == 0: every stride is 0 then, so that no offset is
  // computed from indices that may reach 2^63 (a zero-size tensor's other dims).
  printer.strides.assign(shape.size(), n > 0 ? 1 : 0);
  if (n > 0)
    for (size_t axis = shape.size(); axis-- > 1;)
      printer.strides[axis - 1] = printer.strides[axis] * shape[axis];
  printer.printAxis(0, 0);
}

std::string formatTensor(DType dtype, const Shape& shape, const void* data) {
  std::string out;
  appendTensor(out, dtype, shape, data);
  return out;
}

std::string formatValueLine(std::string_view name, DType dtype, const Shape& shape, const void* data) {
  std::string out(name);
  out += ": ";
  out += TensorType{dtype, shape}.str();
  out += " = ";
  appendTensor(out, dtype, shape, data);
  return out;
}

}  // namespace pir::vm
