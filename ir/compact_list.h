// A growable array of 16 bytes (a std::vector is 24): the block's address and
// a 32-bit size and capacity. An op holds its operands in one, and a program
// holds a million ops, so the 8 bytes are what bring an Op to the next size
// class down. At most UINT32_MAX items (more throws std::length_error; the
// host-memory budget refuses far fewer). Interconverts with std::vector.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <new>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pir {

template <class T>
class CompactList {
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "blocks come from the plain operator new");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  CompactList() = default;
  CompactList(const CompactList& o) { append(o.begin(), o.end()); }
  CompactList(CompactList&& o) noexcept : data_(o.data_), size_(o.size_), capacity_(o.capacity_) { o.forget(); }
  CompactList(std::initializer_list<T> items) { append(items.begin(), items.end()); }
  CompactList(const std::vector<T>& items) { append(items.begin(), items.end()); }  // NOLINT: as a vector converts
  CompactList(std::vector<T>&& items) { appendMoved(items); }  // NOLINT
  ~CompactList() { release(); }

  CompactList& operator=(const CompactList& o) {
    if (this != &o) {
      clear();
      append(o.begin(), o.end());
    }
    return *this;
  }
  CompactList& operator=(CompactList&& o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_;
      size_ = o.size_;
      capacity_ = o.capacity_;
      o.forget();
    }
    return *this;
  }
  CompactList& operator=(std::initializer_list<T> items) {
    clear();
    append(items.begin(), items.end());
    return *this;
  }
  CompactList& operator=(const std::vector<T>& items) {
    clear();
    append(items.begin(), items.end());
    return *this;
  }
  CompactList& operator=(std::vector<T>&& items) {
    clear();
    appendMoved(items);
    return *this;
  }
  // A std::vector copy (for interfaces that take one).
  std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }
  operator std::span<T>() { return {data_, size_}; }  // NOLINT
  operator std::span<const T>() const { return {data_, size_}; }  // NOLINT

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& at(size_t i) {
    if (i >= size_) throw std::out_of_range("CompactList::at");
    return data_[i];
  }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("CompactList::at");
    return data_[i];
  }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void reserve(size_t n) {
    if (n > capacity_) reallocate(n);
  }
  void push_back(const T& item) { emplace_back(item); }
  void push_back(T&& item) { emplace_back(std::move(item)); }
  template <class... A> T& emplace_back(A&&... args) {
    if (size_ == capacity_) {
      // `args` may refer to an item of this list: make the new item before moving the old ones.
      T item(std::forward<A>(args)...);
      reallocate(grownCapacity(size_ + 1));
      ::new (static_cast<void*>(data_ + size_)) T(std::move(item));
    } else {
      ::new (static_cast<void*>(data_ + size_)) T(std::forward<A>(args)...);
    }
    return data_[size_++];
  }
  // Inserts `item` before `pos`; returns the inserted item's position.
  T* insert(const T* pos, T item) {
    const size_t at = static_cast<size_t>(pos - data_);
    emplace_back(std::move(item));
    for (size_t i = size_ - 1; i > at; --i) std::swap(data_[i], data_[i - 1]);
    return data_ + at;
  }
  // Removes the item at `pos`; returns the position of the one after it.
  T* erase(const T* pos) {
    const size_t at = static_cast<size_t>(pos - data_);
    for (size_t i = at; i + 1 < size_; ++i) data_[i] = std::move(data_[i + 1]);
    pop_back();
    return data_ + at;
  }
  void pop_back() { data_[--size_].~T(); }
  void clear() {
    while (size_) pop_back();
  }
  void resize(size_t n) {
    reserve(n);
    while (size_ > n) pop_back();
    while (size_ < n) emplace_back();
  }

 private:
  size_t grownCapacity(size_t atLeast) const {
    size_t cap = capacity_ ? static_cast<size_t>(capacity_) * 2 : 1;
    return cap < atLeast ? atLeast : cap;
  }
  void reallocate(size_t cap) {
    if (cap > UINT32_MAX) throw std::length_error("CompactList: too many items");
    T* block = static_cast<T*>(::operator new(cap * sizeof(T)));
    for (size_t i = 0; i < size_; ++i) {
      ::new (static_cast<void*>(block + i)) T(std::move(data_[i]));
      data_[i].~T();
    }
    if (data_) ::operator delete(data_);
    data_ = block;
    capacity_ = static_cast<uint32_t>(cap);
  }
  template <class It> void append(It first, It last) {
    reserve(size_ + static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  void appendMoved(std::vector<T>& items) {
    reserve(size_ + items.size());
    for (T& item : items) emplace_back(std::move(item));
    items.clear();
  }
  void release() {
    clear();
    if (data_) ::operator delete(data_);
    forget();
  }
  void forget() {
    data_ = nullptr;
    size_ = 0;
    capacity_ = 0;
  }

  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

}  // namespace pir
