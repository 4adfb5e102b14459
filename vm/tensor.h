// Host tensor storage: one contiguous row-major buffer of a TensorType. Used for
// variables, constants, stream and remote buffers, printed values and previews.
//
// Element storage per dtype: bool/u8 as uint8_t, i8 int8_t, i16 int16_t, i32
// int32_t, u16 uint16_t, u32 uint32_t, f16 as IEEE half bits (uint16_t, ir/half.h),
// f32 float, f64 double. Buffers are 16-byte aligned so kernels may vectorise.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "ir/checked_math.h"
#include "ir/dtype.h"
#include "ir/half.h"
#include "ir/number_format.h"
#include "vm/host_memory.h"

namespace pir::vm {

// Zeroed, 16-byte aligned bytes. Copyable (deep copy): session snapshots copy state.
// Every buffer is charged to the host-memory budget (vm/host_memory.h) before it is
// allocated: a resize beyond the budget throws HostMemoryExhausted and changes nothing.
class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(size_t n) { resize(n); }
  AlignedBytes(const AlignedBytes& o) { *this = o; }
  AlignedBytes& operator=(const AlignedBytes& o) {
    if (this != &o) {
      resize(o.size_);
      if (size_) std::memcpy(data_.get(), o.data_.get(), size_);
    }
    return *this;
  }
  AlignedBytes(AlignedBytes&& o) noexcept : data_(std::move(o.data_)), size_(o.size_), charged_(o.charged_) {
    o.size_ = 0;
    o.charged_ = 0;
  }
  AlignedBytes& operator=(AlignedBytes&& o) noexcept {
    if (this != &o) {
      releaseHostMemory(charged_);
      data_ = std::move(o.data_);
      size_ = o.size_;
      charged_ = o.charged_;
      o.size_ = 0;
      o.charged_ = 0;
    }
    return *this;
  }
  ~AlignedBytes() { releaseHostMemory(charged_); }

  // Resizes to n zero bytes (old contents are not kept).
  void resize(size_t n) {
    // At least one chunk: data() is never null, even for an empty tensor, so
    // memcpy of zero bytes never sees a null pointer. n near SIZE_MAX saturates
    // (and the budget refuses it) instead of wrapping.
    const size_t words = n == 0 ? 1 : n / 16 + (n % 16 != 0);
    const uint64_t bytes = n == 0 ? 0 : static_cast<uint64_t>(words) * 16;
    if (bytes > charged_) chargeHostMemory(bytes - charged_);  // throws before anything changes
    std::unique_ptr<Chunk[]> fresh;
    try {
      fresh.reset(new Chunk[words]());
    } catch (...) {
      if (bytes > charged_) releaseHostMemory(bytes - charged_);
      throw;
    }
    if (bytes < charged_) releaseHostMemory(charged_ - bytes);
    charged_ = bytes;
    data_ = std::move(fresh);
    size_ = n;
  }
  std::byte* data() { return reinterpret_cast<std::byte*>(data_.get()); }
  const std::byte* data() const { return reinterpret_cast<const std::byte*>(data_.get()); }
  size_t size() const { return size_; }

 private:
  struct alignas(16) Chunk { unsigned char b[16]; };
  std::unique_ptr<Chunk[]> data_;
  size_t size_ = 0;
  uint64_t charged_ = 0;  // bytes charged to the budget for data_
};

struct HostTensor {
  TensorType type;
  AlignedBytes bytes;

  HostTensor() = default;
  // Zero-filled. The caller has checked the size against the device limit.
  explicit HostTensor(TensorType t) : type(std::move(t)) { bytes.resize(byteSize(type)); }

  // Saturates at SIZE_MAX (which no budget admits) instead of wrapping.
  static size_t byteSize(const TensorType& t) {
    return static_cast<size_t>(
        saturatingMul(static_cast<uint64_t>(t.numElements()), static_cast<uint64_t>(dtypeSize(t.dtype))));
  }
  int64_t numElements() const { return type.numElements(); }
  void* data() { return bytes.data(); }
  const void* data() const { return bytes.data(); }
  template <class T> T* as() { return reinterpret_cast<T*>(bytes.data()); }
  template <class T> const T* as() const { return reinterpret_cast<const T*>(bytes.data()); }

  // Element i as a double (exact for every stored dtype), and set from a double
  // (rounded to the dtype: ir/number_format.h roundToDType).
  double get(int64_t i) const;
  void set(int64_t i, double v);
};

// Element access on raw storage of dtype t (the same conversions as HostTensor).
inline double loadElement(const void* data, DType t, int64_t i) {
  switch (t) {
    case DType::Bool: case DType::U8: return static_cast<const uint8_t*>(data)[i];
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
inline void storeElement(void* data, DType t, int64_t i, double v) {
  v = roundToDType(v, t);
  switch (t) {
    case DType::Bool: case DType::U8: static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(v); break;
    case DType::I8: static_cast<int8_t*>(data)[i] = static_cast<int8_t>(v); break;
    case DType::I16: static_cast<int16_t*>(data)[i] = static_cast<int16_t>(v); break;
    case DType::I32: static_cast<int32_t*>(data)[i] = static_cast<int32_t>(v); break;
    case DType::U16: static_cast<uint16_t*>(data)[i] = static_cast<uint16_t>(v); break;
    case DType::U32: static_cast<uint32_t*>(data)[i] = static_cast<uint32_t>(v); break;
    case DType::F16: static_cast<uint16_t*>(data)[i] = floatToHalf(static_cast<float>(v)); break;
    case DType::F32: static_cast<float*>(data)[i] = static_cast<float>(v); break;
    case DType::F64: static_cast<double*>(data)[i] = v; break;
  }
}

inline double HostTensor::get(int64_t i) const { return loadElement(data(), type.dtype, i); }
inline void HostTensor::set(int64_t i, double v) { storeElement(data(), type.dtype, i, v); }

}  // namespace pir::vm
