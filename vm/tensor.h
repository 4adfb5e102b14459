// Host tensor storage: one contiguous row-major buffer of a TensorType. Used for
// variables, constants, stream and remote buffers, printed values and previews.
//
// Element storage per dtype: bool/u8 as uint8_t, i8 int8_t, i16 int16_t, i32
// int32_t, u16 uint16_t, u32 uint32_t, f16 as IEEE half bits (uint16_t, ir/half.h),
// f32 float, f64 double. Buffers are 64-byte aligned so kernels may vectorise.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
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

// std::memcpy for tensor and message bytes. A zero-size tensor's pointer may be
// null (an empty std::vector's data(), an arena slot of 0 bytes), and memcpy
// forbids a null pointer even for 0 bytes (UBSan: nonnull-attribute). Every byte
// copy in vm/ whose size comes from a tensor goes through here.
inline void copyBytes(void* dst, const void* src, size_t n) {
  if (n) std::memcpy(dst, src, n);
}

// Zeroed, 64-byte aligned bytes, shared copy-on-write (docs/decisions.md "Run
// backups and snapshots"): a copy shares the storage, and the non-const data()
// first gives this object storage of its own (a copy) when another holds it too.
// So session snapshots, run backups and carried-over state cost nothing until one
// side writes, and then only the buffer written. Readers that hold a non-const
// object call the const data() (std::as_const) to avoid an unneeded copy.
//
// Every storage block is charged to the host-memory budget (vm/host_memory.h)
// once, before it is allocated, and released when its last holder lets go: a
// request beyond the budget throws HostMemoryExhausted and changes nothing.
// Sharing is thread-safe as std::shared_ptr is (distinct objects sharing a block
// may be unshared concurrently); one object is not to be used from two threads.
class AlignedBytes {
 public:
  AlignedBytes() = default;
  explicit AlignedBytes(size_t n) { resize(n); }
  AlignedBytes(const AlignedBytes& o) noexcept : block_(o.block_), size_(o.size_) { retain(); }
  AlignedBytes& operator=(const AlignedBytes& o) noexcept {
    if (block_ != o.block_) {
      AlignedBytes copy(o);
      swap(copy);
    } else {
      size_ = o.size_;
    }
    return *this;
  }
  AlignedBytes(AlignedBytes&& o) noexcept : block_(o.block_), size_(o.size_) {
    o.block_ = nullptr;
    o.size_ = 0;
  }
  AlignedBytes& operator=(AlignedBytes&& o) noexcept {
    if (this != &o) {
      AlignedBytes moved(std::move(o));
      swap(moved);
    }
    return *this;
  }
  ~AlignedBytes() { release(); }
  void swap(AlignedBytes& o) noexcept {
    std::swap(block_, o.block_);
    std::swap(size_, o.size_);
  }

  // Resizes to n zero bytes in storage of its own (old contents are not kept).
  void resize(size_t n) {
    Block* fresh = allocate(n);  // throws before anything changes
    release();
    block_ = fresh;
    size_ = n;
  }
  // Writable storage whose contents the caller will overwrite: fresh zeroed storage
  // if shared (no copy), else unchanged.
  void discardIfShared() {
    if (shared()) resize(size_);
  }
  // Writable: unshares (copies) first if another object holds the storage.
  // Never null, even before the first resize (memcpy of zero bytes from or to
  // an empty buffer is then defined).
  std::byte* data() {
    if (shared()) unshare();
    return block_ ? block_->bytes() : emptyStorage();
  }
  const std::byte* data() const { return block_ ? block_->bytes() : emptyStorage(); }
  size_t size() const { return size_; }
  // Another AlignedBytes holds the same storage.
  bool shared() const { return block_ && block_->refs.load(std::memory_order_acquire) > 1; }

 private:
  // Header and bytes in one allocation. The bytes start on a 64-byte boundary (a
  // cache line: whole-vector loads never straddle two), the header just before
  // them; `offset` finds the start of the allocation again.
  // A multiple of 16 bytes, which kSlack below relies on.
  struct alignas(16) Block {
    std::atomic<uint32_t> refs;
    uint32_t offset;   // bytes from the allocation's start to this header
    uint64_t charged;          // bytes charged to `budget` for this block
    HostMemoryBudget* budget;  // the context's it was made in (it may be freed in another)
    std::byte* bytes() { return reinterpret_cast<std::byte*>(this) + sizeof(Block); }
  };
  static_assert(sizeof(Block) == 32);
  static constexpr size_t kAlignment = 64;

  static Block* allocate(size_t n) {
    // At least one chunk: data() is never null, even for an empty tensor, so
    // memcpy of zero bytes never sees a null pointer. n near SIZE_MAX saturates
    // (and the budget refuses it) instead of wrapping.
    const uint64_t words = n == 0 ? 1 : n / 16 + (n % 16 != 0);
    const uint64_t charged = n == 0 ? 0 : saturatingMul(words, uint64_t(16));
    HostMemoryBudget& budget = hostMemoryBudget();
    budget.charge(charged);
    // calloc: fresh pages from the system are known zero and stay untouched (not
    // resident) until written.
    constexpr uint64_t kSlack = sizeof(Block) + kAlignment - 16;  // malloc aligns to 16
    void* raw = words > (SIZE_MAX - kSlack) / 16 ? nullptr : std::calloc(1, kSlack + words * 16);
    if (!raw) {
      budget.release(charged);
      throw std::bad_alloc();
    }
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t bytes = (start + sizeof(Block) + kAlignment - 1) & ~uintptr_t(kAlignment - 1);
    Block* b = reinterpret_cast<Block*>(bytes - sizeof(Block));
    new (&b->refs) std::atomic<uint32_t>(1);
    b->offset = static_cast<uint32_t>(bytes - sizeof(Block) - start);
    b->charged = charged;
    b->budget = &budget;
    return b;
  }
  void unshare() {
    Block* own = allocate(size_);
    std::memcpy(own->bytes(), block_->bytes(), size_);
    release();
    block_ = own;
  }
  void retain() noexcept {
    if (block_) block_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void release() noexcept {
    if (block_ && block_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      block_->budget->release(block_->charged);
      const uint32_t offset = block_->offset;
      block_->refs.~atomic();
      std::free(reinterpret_cast<std::byte*>(block_) - offset);
    }
    block_ = nullptr;
  }

  // What data() points at without storage: zero bytes are read or written there.
  static std::byte* emptyStorage() {
    alignas(64) static std::byte none[64];
    return none;
  }

  Block* block_ = nullptr;
  size_t size_ = 0;
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
