#include "vm/format.h"

#include <cstring>

#include "ir/half.h"
#include "ir/number_format.h"

namespace pir::vm {
namespace {

// Element i of storage laid out as in vm/tensor.h, as a double (exact for every dtype).
double elementAt(const void* data, DType dtype, int64_t i) {
  switch (dtype) {
    case DType::Bool:
    case DType::U8: return static_cast<const uint8_t*>(data)[i];
    case DType::I8: return static_cast<const int8_t*>(data)[i];
    case DType::I16: return static_cast<const int16_t*>(data)[i];
    case DType::I32: return static_cast<const int32_t*>(data)[i];
    case DType::U16: return static_cast<const uint16_t*>(data)[i];
    case DType::U32: return static_cast<const uint32_t*>(data)[i];
    case DType::F16: return halfToFloat(static_cast<const uint16_t*>(data)[i]);
    case DType::F32: return static_cast<const float*>(data)[i];
    case DType::F64: return static_cast<const double*>(data)[i];
  }
  return 0;
}

struct Printer {
  std::string& out;
  DType dtype;
  const Shape& shape;
  const void* data;
  bool summarise;
  std::vector<int64_t> strides;  // row-major element strides

  void printAxis(size_t axis, int64_t offset) {
    if (axis == shape.size()) {
      appendNumber(out, elementAt(data, dtype, offset), dtype);
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
