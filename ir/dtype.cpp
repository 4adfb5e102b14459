#include "ir/dtype.h"

#include <limits>

namespace pir {

std::string_view dtypeName(DType t) {
  switch (t) {
#define PIR_X(e, n, s) \
  case DType::e:       \
    return n;
    PIR_DTYPES(PIR_X)
#undef PIR_X
  }
  return "?";
}

int dtypeSize(DType t) {
  switch (t) {
#define PIR_X(e, n, s) \
  case DType::e:       \
    return s;
    PIR_DTYPES(PIR_X)
#undef PIR_X
  }
  return 0;
}

double dtypeMin(DType t) {
  switch (t) {
    case DType::Bool: return 0;
    case DType::I8: return -128;
    case DType::I16: return -32768;
    case DType::I32: return -2147483648.0;
    case DType::U8: case DType::U16: case DType::U32: return 0;
    case DType::F16: return -65504.0;
    case DType::F32: return -static_cast<double>(std::numeric_limits<float>::max());
    case DType::F64: return -std::numeric_limits<double>::max();
  }
  return 0;
}

double dtypeMax(DType t) {
  switch (t) {
    case DType::Bool: return 1;
    case DType::I8: return 127;
    case DType::I16: return 32767;
    case DType::I32: return 2147483647.0;
    case DType::U8: return 255;
    case DType::U16: return 65535;
    case DType::U32: return 4294967295.0;
    case DType::F16: return 65504.0;
    case DType::F32: return static_cast<double>(std::numeric_limits<float>::max());
    case DType::F64: return std::numeric_limits<double>::max();
  }
  return 0;
}

std::optional<ParsedDType> parseDType(std::string_view w) {
  struct Entry { std::string_view word; DType t; bool down; };
  static constexpr Entry table[] = {
      {"bool", DType::Bool, false},  {"i8", DType::I8, false},       {"int8", DType::I8, false},
      {"i16", DType::I16, false},    {"int16", DType::I16, false},   {"i32", DType::I32, false},
      {"int32", DType::I32, false},  {"u8", DType::U8, false},       {"uint8", DType::U8, false},
      {"u16", DType::U16, false},    {"uint16", DType::U16, false},  {"u32", DType::U32, false},
      {"uint32", DType::U32, false}, {"f16", DType::F16, false},     {"float16", DType::F16, false},
      {"half", DType::F16, false},   {"f32", DType::F32, false},     {"float32", DType::F32, false},
      {"float", DType::F32, false},  {"f64", DType::F64, false},     {"float64", DType::F64, false},
      {"double", DType::F64, false}, {"i64", DType::I32, true},      {"int64", DType::I32, true},
      {"u64", DType::U32, true},     {"uint64", DType::U32, true},
  };
  for (const auto& e : table)
    if (e.word == w) return ParsedDType{e.t, e.down};
  return std::nullopt;
}

int64_t numElements(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) {
    if (d == 0) return 0;
    if (n > std::numeric_limits<int64_t>::max() / d) n = std::numeric_limits<int64_t>::max();
    else n *= d;
  }
  return n;
}

std::string shapeToString(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += ',';
    r += std::to_string(s[i]);
  }
  r += ']';
  return r;
}

std::string TensorType::str() const { return std::string(dtypeName(dtype)) + shapeToString(shape); }

}  // namespace pir
