// An op's result list: nearly every op has one result (a few have none or
// several), so the first item is kept inside the list and the heap is used only
// from the second on. 16 bytes (a std::vector is 24): the inline item and the
// heap block's address share one word; a program of a million ops saves a
// million 8-byte heap blocks and their allocations.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <stdexcept>

namespace pir {

struct Value;

class ResultList {
 public:
  using value_type = Value*;
  using iterator = Value**;
  using const_iterator = Value* const*;

  ResultList() = default;
  ResultList(const ResultList& o) { assign(o); }
  ResultList(std::initializer_list<Value*> items) {
    reserve(items.size());
    for (Value* v : items) push_back(v);
  }
  ResultList(ResultList&& o) noexcept { take(o); }
  ResultList& operator=(const ResultList& o) {
    if (this != &o) {
      clear();
      assign(o);
    }
    return *this;
  }
  ResultList& operator=(ResultList&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ResultList& operator=(std::initializer_list<Value*> items) {
    clear();
    reserve(items.size());
    for (Value* v : items) push_back(v);
    return *this;
  }
  ~ResultList() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Value** data() { return items(); }
  Value* const* data() const { return items(); }
  Value** begin() { return items(); }
  Value** end() { return items() + size_; }
  Value* const* begin() const { return items(); }
  Value* const* end() const { return items() + size_; }
  Value*& operator[](size_t i) { return items()[i]; }
  Value* operator[](size_t i) const { return items()[i]; }
  Value*& at(size_t i) {
    if (i >= size_) throw std::out_of_range("ResultList::at");
    return items()[i];
  }
  Value* at(size_t i) const {
    if (i >= size_) throw std::out_of_range("ResultList::at");
    return items()[i];
  }
  Value*& front() { return items()[0]; }
  Value* front() const { return items()[0]; }
  Value*& back() { return items()[size_ - 1]; }
  Value* back() const { return items()[size_ - 1]; }

  void push_back(Value* v) {
    if (size_ == capacity()) grow(size_ + 1);
    items()[size_++] = v;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity()) grow(n);
  }

 private:
  // Invariant: capacity_ is 0 and the one inline slot is the storage
  // (capacity 1), or capacity_ >= 2 and heap_ is a block of capacity_ items.
  bool onHeap() const { return capacity_ != 0; }
  Value** items() { return onHeap() ? heap_ : &inline_; }
  Value* const* items() const { return onHeap() ? heap_ : &inline_; }
  size_t capacity() const { return onHeap() ? capacity_ : 1; }
  void grow(size_t atLeast) {
    size_t cap = capacity() * 2;
    if (cap < atLeast) cap = atLeast;
    if (cap > UINT32_MAX) throw std::length_error("ResultList: too many results");
    auto** block = static_cast<Value**>(::operator new(cap * sizeof(Value*)));
    if (size_) std::memcpy(block, items(), size_ * sizeof(Value*));
    if (onHeap()) ::operator delete(heap_);
    heap_ = block;
    capacity_ = static_cast<uint32_t>(cap);
  }
  void assign(const ResultList& o) {
    reserve(o.size_);
    if (o.size_) std::memcpy(items(), o.items(), o.size_ * sizeof(Value*));
    size_ = o.size_;
  }
  void take(ResultList& o) {
    if (o.onHeap()) heap_ = o.heap_;
    else inline_ = o.inline_;
    size_ = o.size_;
    capacity_ = o.capacity_;
    o.inline_ = nullptr;
    o.size_ = 0;
    o.capacity_ = 0;
  }
  void release() {
    if (onHeap()) ::operator delete(heap_);
    inline_ = nullptr;
    size_ = 0;
    capacity_ = 0;
  }

  union {
    Value** heap_;            // capacity_ >= 2
    Value* inline_ = nullptr; // capacity_ == 0
  };
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;  // of heap_; 0 while the inline slot is the storage
};

}  // namespace pir
