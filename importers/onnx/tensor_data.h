// Tensors whose values the importer knows: initializers, Constant nodes and
// everything folded from them (shape computations). Decoding from ONNX checks
// every size before allocating; int64 data is narrowed to pir's 32-bit integers
// with a range check (pir stores i64 as i32, language.md §2).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace pir::onnx_import {

// pir's element types (language.md §2), as the importer names them.
enum class Elem : uint8_t { Bool, I8, I16, I32, U8, U16, U32, F16, F32, F64 };
const char* elemName(Elem e);        // "f32"
int elemBytes(Elem e);
bool elemIsFloat(Elem e);
bool parseElemName(const std::string& name, Elem& out);

// An error the importer reports (the message is complete but for the file).
struct ImportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The largest tensor the importer accepts (elements): beyond what the emulated
// device could hold, so a hostile size is refused before any allocation.
inline constexpr int64_t kMaxElements = int64_t(1) << 31;

// Product of dims, checked: negative dims and overflow past kMaxElements throw.
int64_t checkedElementCount(const std::vector<int64_t>& dims, const std::string& what);

struct ConstTensor {
  Elem elem = Elem::F32;
  std::vector<int64_t> shape;
  std::vector<double> f;   // float elements
  std::vector<int64_t> i;  // integer and bool elements (int64 before narrowing)
  int64_t size() const { return elemIsFloat(elem) ? int64_t(f.size()) : int64_t(i.size()); }
  double at(int64_t k) const { return elemIsFloat(elem) ? f[k] : double(i[k]); }
  int64_t intAt(int64_t k) const { return elemIsFloat(elem) ? int64_t(f[k]) : i[k]; }
};

// Decodes an ONNX TensorProto (typed fields or raw_data). `what` names the
// tensor in errors. Throws ImportError on an unsupported dtype, a size mismatch
// or an int64/uint64 value outside the 32-bit range.
ConstTensor decodeTensor(const onnx::TensorProto& t, const std::string& what);
// The pir element type of ONNX TensorProto::DataType `onnxType`; throws for
// types pir cannot hold (string, bfloat16, complex). Sets `narrowed` for int64/uint64.
Elem elemOfOnnxType(int onnxType, const std::string& what, bool* narrowed = nullptr);

// Checks that every integer element fits `c.elem` (after int64 narrowing).
void checkIntegerRange(const ConstTensor& c, const std::string& what);

// Converts the elements to `to` (C casts, float to int truncates).
ConstTensor castTensor(const ConstTensor& c, Elem to);

// `[[1, 2], [3, 4]]`, a .pir literal of the data (shortest round-trip floats).
std::string literalText(const ConstTensor& c);
// `f32[2,3]`
std::string typeText(Elem e, const std::vector<int64_t>& shape);
// NPY 1.0 bytes of the tensor (little-endian, C order).
std::string npyBytes(const ConstTensor& c);

}  // namespace pir::onnx_import
