// Element types and tensor types of pir (language.md §2).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pir {

// X(Enum, canonical name, bytes per element)
#define PIR_DTYPES(X) \
  X(Bool, "bool", 1)  \
  X(I8, "i8", 1)      \
  X(I16, "i16", 2)    \
  X(I32, "i32", 4)    \
  X(U8, "u8", 1)      \
  X(U16, "u16", 2)    \
  X(U32, "u32", 4)    \
  X(F16, "f16", 2)    \
  X(F32, "f32", 4)    \
  X(F64, "f64", 8)

enum class DType : uint8_t {
#define PIR_X(e, n, s) e,
  PIR_DTYPES(PIR_X)
#undef PIR_X
};
inline constexpr int kNumDTypes = 10;

std::string_view dtypeName(DType t);
int dtypeSize(DType t);
inline bool isFloat(DType t) { return t == DType::F16 || t == DType::F32 || t == DType::F64; }
inline bool isSignedInt(DType t) { return t == DType::I8 || t == DType::I16 || t == DType::I32; }
inline bool isUnsignedInt(DType t) { return t == DType::U8 || t == DType::U16 || t == DType::U32; }
inline bool isInteger(DType t) { return isSignedInt(t) || isUnsignedInt(t); }
// Smallest and largest finite value representable (bool: 0..1).
double dtypeMin(DType t);
double dtypeMax(DType t);

struct ParsedDType {
  DType dtype;
  bool downcast;  // written as i64/u64 (or an alias): stored as i32/u32, warn once
};
// Canonical names and the aliases of language.md §2; nullopt if not a dtype word.
std::optional<ParsedDType> parseDType(std::string_view word);

using Shape = std::vector<int64_t>;

// Number of elements; 1 for a scalar. Saturates at INT64_MAX (callers check size limits).
int64_t numElements(const Shape& s);
std::string shapeToString(const Shape& s);  // "[2,3]"

struct TensorType {
  DType dtype = DType::F32;
  Shape shape;
  int64_t numElements() const { return pir::numElements(shape); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  std::string str() const;  // "f32[2,3]"
  bool operator==(const TensorType&) const = default;
};

}  // namespace pir
