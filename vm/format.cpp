#include "vm/format.h"
#include "vm/tensor.h"

#include <cstring>

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

}  // namespace

void appendTensor(std::string& out, DType dtype, const Shape& shape, const void* data) {
  Printer printer{out, dtype, shape, data, numElements(shape) > kSummariseThreshold, {}};
  printer.strides.assign(shape.size(), 1);
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
