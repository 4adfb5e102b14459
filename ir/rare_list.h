// A list that most of its holders leave empty (an op's callees, an exchange
// block's body): one pointer where a std::vector is three, the vector made on
// the heap when the first item goes in. The IR holds millions of ops, so the
// 16 bytes matter; the extra indirection is paid only by the few that use it.
#pragma once
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pir {

template <class T>
class RareList {
 public:
  RareList() = default;
  // Copies are deep (only instantiated for copyable T).
  RareList(const RareList& o) : list_(o.list_ ? std::make_unique<std::vector<T>>(*o.list_) : nullptr) {}
  RareList(RareList&&) noexcept = default;
  RareList& operator=(const RareList& o) {
    if (this != &o) list_ = o.list_ ? std::make_unique<std::vector<T>>(*o.list_) : nullptr;
    return *this;
  }
  RareList& operator=(RareList&&) noexcept = default;
  RareList& operator=(std::vector<T> items) {
    if (list_) *list_ = std::move(items);
    else if (!items.empty()) list_ = std::make_unique<std::vector<T>>(std::move(items));
    return *this;
  }

  // The items as a vector: empty (a shared immutable one) when none were added.
  const std::vector<T>& list() const { return list_ ? *list_ : noItems(); }
  operator const std::vector<T>&() const { return list(); }
  // The vector to change in place; made (empty) if there was none. Once made,
  // it stays the same object until the list is destroyed or another RareList is
  // assigned to it, so a reference to it (an undo record's) outlives clear(),
  // take() and assigning a std::vector.
  std::vector<T>& mutableList() {
    if (!list_) list_ = std::make_unique<std::vector<T>>();
    return *list_;
  }
  // Takes the items out, leaving the list empty.
  std::vector<T> take() {
    std::vector<T> out;
    if (list_) out.swap(*list_);
    return out;
  }

  size_t size() const { return list_ ? list_->size() : 0; }
  bool empty() const { return !list_ || list_->empty(); }
  T* data() { return list_ ? list_->data() : nullptr; }
  const T* data() const { return list_ ? list_->data() : nullptr; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return (*list_)[i]; }
  const T& operator[](size_t i) const { return (*list_)[i]; }
  T& at(size_t i) { return mutableListChecked(i)[i]; }
  const T& at(size_t i) const {
    if (i >= size()) throw std::out_of_range("RareList::at");
    return (*list_)[i];
  }
  T& front() { return (*list_).front(); }
  const T& front() const { return (*list_).front(); }
  T& back() { return (*list_).back(); }
  const T& back() const { return (*list_).back(); }

  void push_back(T item) { mutableList().push_back(std::move(item)); }
  template <class... A> T& emplace_back(A&&... args) { return mutableList().emplace_back(std::forward<A>(args)...); }
  void reserve(size_t n) {
    if (n) mutableList().reserve(n);
  }
  void clear() {
    if (list_) list_->clear();
  }

 private:
  static const std::vector<T>& noItems() {
    static const std::vector<T> kEmpty;
    return kEmpty;
  }
  std::vector<T>& mutableListChecked(size_t i) {
    if (i >= size()) throw std::out_of_range("RareList::at");
    return *list_;
  }
  std::unique_ptr<std::vector<T>> list_;  // nullptr: no items
};

}  // namespace pir
