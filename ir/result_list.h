// An op's result list: nearly every op has one result (a few have none or
// several), so the first item is kept inside the list and the heap is used only
// for more. One word (a std::vector is 24 bytes): the inline item, or the
// address of a heap block that holds the count, the capacity and the items; a
// program of a million ops saves a million 8-byte heap blocks and their
// allocations, and 16 bytes of each op.
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

  size_t size() const { return onHeap() ? heap()->size : (slot_ ? 1 : 0); }
  bool empty() const { return size() == 0; }
  Value** data() { return items(); }
  Value* const* data() const { return items(); }
  Value** begin() { return items(); }
  Value** end() { return items() + size(); }
  Value* const* begin() const { return items(); }
  Value* const* end() const { return items() + size(); }
  // An item written through a reference must not be null while the list holds
  // one item inline (the null inline slot is the empty list).
  Value*& operator[](size_t i) { return items()[i]; }
  Value* operator[](size_t i) const { return items()[i]; }
  Value*& at(size_t i) {
    if (i >= size()) throw std::out_of_range("ResultList::at");
    return items()[i];
  }
  Value* at(size_t i) const {
    if (i >= size()) throw std::out_of_range("ResultList::at");
    return items()[i];
  }
  Value*& front() { return items()[0]; }
  Value* front() const { return items()[0]; }
  Value*& back() { return items()[size() - 1]; }
  Value* back() const { return items()[size() - 1]; }

  void push_back(Value* v) {
    if (!onHeap() && !slot_ && v) {
      slot_ = v;
      return;
    }
    // A null item goes to the heap even when it is the first: inline, it would read as no item.
    const size_t n = size();
    if (!onHeap() || n == heap()->capacity) grow(n + 1);
    heap()->items()[n] = v;
    heap()->size = static_cast<uint32_t>(n + 1);
  }
  void pop_back() {
    if (onHeap()) --heap()->size;
    else slot_ = nullptr;
  }
  void clear() {
    if (onHeap()) heap()->size = 0;
    else slot_ = nullptr;
  }
  void reserve(size_t n) {
    if (n > capacity()) grow(n);
  }

 private:
  // The heap block: its header, then `capacity` items.
  struct Heap {
    uint32_t size;
    uint32_t capacity;
    Value** items() { return reinterpret_cast<Value**>(this + 1); }
  };
  static_assert(sizeof(Heap) == sizeof(Value*), "the items follow the header unpadded");
  // Invariant: slot_ is an item (the one inline, non-null), nullptr (empty), or
  // a Heap block's address with its lowest bit set (blocks are at least
  // 8-aligned, so no item's address has that bit). Once on the heap, a list
  // stays there until it is destroyed or another is moved into it.
  bool onHeap() const { return reinterpret_cast<uintptr_t>(slot_) & 1; }
  Heap* heap() const { return reinterpret_cast<Heap*>(reinterpret_cast<uintptr_t>(slot_) & ~uintptr_t(1)); }
  Value** items() { return onHeap() ? heap()->items() : &slot_; }
  Value* const* items() const { return onHeap() ? heap()->items() : &slot_; }
  size_t capacity() const { return onHeap() ? heap()->capacity : 1; }
  void grow(size_t atLeast) {
    size_t cap = capacity() * 2;
    if (cap < atLeast) cap = atLeast;
    if (cap < 2) cap = 2;
    if (cap > UINT32_MAX) throw std::length_error("ResultList: too many results");
    auto* block = static_cast<Heap*>(::operator new(sizeof(Heap) + cap * sizeof(Value*)));
    const size_t n = size();
    if (n) std::memcpy(block->items(), items(), n * sizeof(Value*));
    block->size = static_cast<uint32_t>(n);
    block->capacity = static_cast<uint32_t>(cap);
    if (onHeap()) ::operator delete(heap());
    slot_ = reinterpret_cast<Value*>(reinterpret_cast<uintptr_t>(block) | 1);
  }
  void assign(const ResultList& o) {
    const size_t n = o.size();
    if (!onHeap() && n == 1 && o[0]) {
      slot_ = o[0];
      return;
    }
    if (n == 0) return;
    if (!onHeap() || n > heap()->capacity) grow(n);
    std::memcpy(heap()->items(), o.items(), n * sizeof(Value*));
    heap()->size = static_cast<uint32_t>(n);
  }
  void take(ResultList& o) {
    slot_ = o.slot_;
    o.slot_ = nullptr;
  }
  void release() {
    if (onHeap()) ::operator delete(heap());
    slot_ = nullptr;
  }

  Value* slot_ = nullptr;
};
static_assert(sizeof(ResultList) == sizeof(Value*), "a result list is one word");

}  // namespace pir
