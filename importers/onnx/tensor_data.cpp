#include "importers/onnx/tensor_data.h"

#include <onnx/onnx_pb.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace pir::onnx_import {

const char* elemName(Elem e) {
  static const char* const kNames[] = {"bool", "i8", "i16", "i32", "u8", "u16", "u32", "f16", "f32", "f64"};
  return kNames[static_cast<int>(e)];
}

int elemBytes(Elem e) {
  static const int kBytes[] = {1, 1, 2, 4, 1, 2, 4, 2, 4, 8};
  return kBytes[static_cast<int>(e)];
}

bool elemIsFloat(Elem e) { return e == Elem::F16 || e == Elem::F32 || e == Elem::F64; }

bool parseElemName(const std::string& name, Elem& out) {
  for (int k = 0; k <= static_cast<int>(Elem::F64); ++k)
    if (name == elemName(static_cast<Elem>(k))) {
      out = static_cast<Elem>(k);
      return true;
    }
  return false;
}

int64_t checkedElementCount(const std::vector<int64_t>& dims, const std::string& what) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) throw ImportError(what + ": negative dimension " + std::to_string(d));
    if (d != 0 && n > kMaxElements / d)
      throw ImportError(what + ": " + std::to_string(dims.size()) + "-D shape has more than 2^31 elements");
    n *= d;
  }
  // A zero dimension makes the tensor empty whatever the others are; the
  // others are still bounded (each ≤ 2^31) by the loop above only when n > 0.
  for (int64_t d : dims)
    if (d > kMaxElements) throw ImportError(what + ": dimension " + std::to_string(d) + " is too large");
  return n;
}

Elem elemOfOnnxType(int onnxType, const std::string& what, bool* narrowed) {
  using T = onnx::TensorProto;
  if (narrowed) *narrowed = false;
  switch (onnxType) {
    case T::FLOAT: return Elem::F32;
    case T::DOUBLE: return Elem::F64;
    case T::FLOAT16: return Elem::F16;
    case T::BOOL: return Elem::Bool;
    case T::INT8: return Elem::I8;
    case T::INT16: return Elem::I16;
    case T::INT32: return Elem::I32;
    case T::UINT8: return Elem::U8;
    case T::UINT16: return Elem::U16;
    case T::UINT32: return Elem::U32;
    case T::INT64:
      if (narrowed) *narrowed = true;
      return Elem::I32;
    case T::UINT64:
      if (narrowed) *narrowed = true;
      return Elem::U32;
    case T::STRING: throw ImportError(what + ": string tensors are not supported (pir has no string dtype)");
    case T::BFLOAT16: throw ImportError(what + ": bfloat16 is not supported (pir has no bfloat16 dtype)");
    case T::COMPLEX64:
    case T::COMPLEX128: throw ImportError(what + ": complex tensors are not supported");
    default: throw ImportError(what + ": unknown ONNX data type " + std::to_string(onnxType));
  }
}

namespace {

double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) v = std::ldexp(mant, -24);
  else if (exp == 31) v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else v = std::ldexp(mant + 1024, exp - 25);
  return sign ? -v : v;
}

uint16_t doubleToHalf(double d) {
  float f = static_cast<float>(d);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t absx = x & 0x7fffffff;
  if (absx > 0x7f800000) return static_cast<uint16_t>(sign | 0x7e00);  // NaN
  if (absx >= 0x477ff000) return static_cast<uint16_t>(sign | 0x7c00);  // overflow to inf
  if (absx < 0x38800000) {                                               // subnormal or zero
    float a;
    std::memcpy(&a, &absx, 4);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  uint32_t mant = absx & 0x7fffff;
  uint32_t exp = (absx >> 23) - 112;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // round to nearest even
  return static_cast<uint16_t>(sign | h);
}

template <class T>
T readLE(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

void requireCount(int64_t have, int64_t want, const std::string& what, const char* field) {
  if (have != want)
    throw ImportError(what + ": " + field + " holds " + std::to_string(have) + " elements, the shape needs " +
                      std::to_string(want));
}

}  // namespace

void checkIntegerRange(const ConstTensor& c, const std::string& what) {
  if (elemIsFloat(c.elem) || c.elem == Elem::Bool) return;
  int64_t lo = 0, hi = 0;
  switch (c.elem) {
    case Elem::I8: lo = -128, hi = 127; break;
    case Elem::I16: lo = -32768, hi = 32767; break;
    case Elem::I32: lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max(); break;
    case Elem::U8: hi = 255; break;
    case Elem::U16: hi = 65535; break;
    case Elem::U32: hi = std::numeric_limits<uint32_t>::max(); break;
    default: break;
  }
  for (size_t k = 0; k < c.i.size(); ++k)
    if (c.i[k] < lo || c.i[k] > hi)
      throw ImportError(what + ": value " + std::to_string(c.i[k]) + " at index " + std::to_string(k) +
                        " does not fit " + elemName(c.elem) + " (pir stores int64 as int32)");
}

ConstTensor decodeTensor(const onnx::TensorProto& t, const std::string& what) {
  using T = onnx::TensorProto;
  if (t.data_location() == T::EXTERNAL || t.external_data_size() > 0)
    throw ImportError(what + ": external data is not supported (save the model with its weights inside)");
  if (t.has_segment()) throw ImportError(what + ": segmented tensors are not supported");
  ConstTensor c;
  c.elem = elemOfOnnxType(t.data_type(), what);
  c.shape.assign(t.dims().begin(), t.dims().end());
  const int64_t n = checkedElementCount(c.shape, what);
  const bool isFloat = elemIsFloat(c.elem);
  const int type = t.data_type();
  if (t.has_raw_data()) {
    const std::string& raw = t.raw_data();
    int bytes = type == T::INT64 || type == T::UINT64 ? 8 : elemBytes(c.elem);
    if (static_cast<int64_t>(raw.size()) != n * bytes)
      throw ImportError(what + ": raw_data has " + std::to_string(raw.size()) + " bytes, the shape " +
                        typeText(c.elem, c.shape) + " needs " + std::to_string(n * bytes));
    const char* p = raw.data();
    if (isFloat) c.f.resize(n);
    else c.i.resize(n);
    for (int64_t k = 0; k < n; ++k, p += bytes) {
      switch (type) {
        case T::FLOAT: c.f[k] = readLE<float>(p); break;
        case T::DOUBLE: c.f[k] = readLE<double>(p); break;
        case T::FLOAT16: c.f[k] = halfToDouble(readLE<uint16_t>(p)); break;
        case T::BOOL: c.i[k] = readLE<uint8_t>(p) != 0; break;
        case T::INT8: c.i[k] = readLE<int8_t>(p); break;
        case T::INT16: c.i[k] = readLE<int16_t>(p); break;
        case T::INT32: c.i[k] = readLE<int32_t>(p); break;
        case T::UINT8: c.i[k] = readLE<uint8_t>(p); break;
        case T::UINT16: c.i[k] = readLE<uint16_t>(p); break;
        case T::UINT32: c.i[k] = readLE<uint32_t>(p); break;
        case T::INT64: c.i[k] = readLE<int64_t>(p); break;
        case T::UINT64: {
          uint64_t u = readLE<uint64_t>(p);
          c.i[k] = u > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                      : static_cast<int64_t>(u);
          break;
        }
      }
    }
  } else {
    switch (type) {
      case T::FLOAT:
        requireCount(t.float_data_size(), n, what, "float_data");
        c.f.assign(t.float_data().begin(), t.float_data().end());
        break;
      case T::DOUBLE:
        requireCount(t.double_data_size(), n, what, "double_data");
        c.f.assign(t.double_data().begin(), t.double_data().end());
        break;
      case T::FLOAT16:
        requireCount(t.int32_data_size(), n, what, "int32_data");
        c.f.resize(n);
        for (int64_t k = 0; k < n; ++k) c.f[k] = halfToDouble(static_cast<uint16_t>(t.int32_data(k)));
        break;
      case T::INT64:
        requireCount(t.int64_data_size(), n, what, "int64_data");
        c.i.assign(t.int64_data().begin(), t.int64_data().end());
        break;
      case T::UINT32:
      case T::UINT64:
        requireCount(t.uint64_data_size(), n, what, "uint64_data");
        c.i.resize(n);
        for (int64_t k = 0; k < n; ++k) {
          uint64_t u = t.uint64_data(k);
          c.i[k] = u > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                      : static_cast<int64_t>(u);
        }
        break;
      default:
        requireCount(t.int32_data_size(), n, what, "int32_data");
        c.i.resize(n);
        for (int64_t k = 0; k < n; ++k) c.i[k] = type == T::BOOL ? t.int32_data(k) != 0 : t.int32_data(k);
        break;
    }
  }
  checkIntegerRange(c, what);
  return c;
}

ConstTensor castTensor(const ConstTensor& c, Elem to) {
  ConstTensor r;
  r.elem = to;
  r.shape = c.shape;
  int64_t n = c.size();
  if (elemIsFloat(to)) {
    r.f.resize(n);
    for (int64_t k = 0; k < n; ++k) {
      double v = c.at(k);
      r.f[k] = to == Elem::F32 ? double(float(v)) : to == Elem::F16 ? halfToDouble(doubleToHalf(v)) : v;
    }
  } else {
    r.i.resize(n);
    for (int64_t k = 0; k < n; ++k) {
      if (to == Elem::Bool) {
        r.i[k] = c.at(k) != 0;
      } else if (elemIsFloat(c.elem)) {
        double v = c.f[k];
        r.i[k] = std::isnan(v) ? 0 : v >= 9.2e18 ? std::numeric_limits<int64_t>::max()
                                 : v <= -9.2e18 ? std::numeric_limits<int64_t>::min() : static_cast<int64_t>(v);
      } else {
        r.i[k] = c.i[k];
      }
    }
  }
  return r;
}

std::string typeText(Elem e, const std::vector<int64_t>& shape) {
  std::string s = elemName(e);
  s += '[';
  for (size_t k = 0; k < shape.size(); ++k) {
    if (k) s += ',';
    s += std::to_string(shape[k]);
  }
  s += ']';
  return s;
}

namespace {
void appendNumber(std::string& out, const ConstTensor& c, int64_t k) {
  if (c.elem == Elem::Bool) {
    out += c.i[k] ? "true" : "false";
    return;
  }
  if (!elemIsFloat(c.elem)) {
    out += std::to_string(c.i[k]);
    return;
  }
  double v = c.f[k];
  if (std::isnan(v)) {
    out += "nan";
    return;
  }
  if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
    return;
  }
  char buf[64];
  std::to_chars_result r = c.elem == Elem::F64 ? std::to_chars(buf, buf + sizeof buf, v)
                                                : std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  out.append(buf, r.ptr);
}

void appendNested(std::string& out, const ConstTensor& c, size_t dim, int64_t& next) {
  out += '[';
  for (int64_t k = 0; k < c.shape[dim]; ++k) {
    if (k) out += ", ";
    if (dim + 1 == c.shape.size()) appendNumber(out, c, next++);
    else appendNested(out, c, dim + 1, next);
  }
  out += ']';
}
}  // namespace

std::string literalText(const ConstTensor& c) {
  std::string out;
  if (c.shape.empty()) {
    appendNumber(out, c, 0);
    return out;
  }
  int64_t next = 0;
  appendNested(out, c, 0, next);
  return out;
}

std::string npyBytes(const ConstTensor& c) {
  static const char* const kDescr[] = {"|b1", "|i1", "<i2", "<i4", "|u1", "<u2", "<u4", "<f2", "<f4", "<f8"};
  std::string shape = "(";
  for (size_t k = 0; k < c.shape.size(); ++k) shape += std::to_string(c.shape[k]) + (c.shape.size() == 1 ? "," : k + 1 < c.shape.size() ? ", " : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + kDescr[static_cast<int>(c.elem)] +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  int64_t n = c.size();
  int bytes = elemBytes(c.elem);
  size_t base = out.size();
  out.resize(base + n * bytes);
  char* p = out.data() + base;
  for (int64_t k = 0; k < n; ++k, p += bytes) {
    switch (c.elem) {
      case Elem::Bool: *p = c.i[k] ? 1 : 0; break;
      case Elem::I8: *p = static_cast<int8_t>(c.i[k]); break;
      case Elem::U8: *p = static_cast<char>(static_cast<uint8_t>(c.i[k])); break;
      case Elem::I16: { int16_t v = static_cast<int16_t>(c.i[k]); std::memcpy(p, &v, 2); break; }
      case Elem::U16: { uint16_t v = static_cast<uint16_t>(c.i[k]); std::memcpy(p, &v, 2); break; }
      case Elem::I32: { int32_t v = static_cast<int32_t>(c.i[k]); std::memcpy(p, &v, 4); break; }
      case Elem::U32: { uint32_t v = static_cast<uint32_t>(c.i[k]); std::memcpy(p, &v, 4); break; }
      case Elem::F16: { uint16_t v = doubleToHalf(c.f[k]); std::memcpy(p, &v, 2); break; }
      case Elem::F32: { float v = static_cast<float>(c.f[k]); std::memcpy(p, &v, 4); break; }
      case Elem::F64: std::memcpy(p, &c.f[k], 8); break;
    }
  }
  return out;
}

}  // namespace pir::onnx_import
