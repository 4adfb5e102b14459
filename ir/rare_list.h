// A list that most of its holders leave empty (an op's callees, an exchange
// block's body, its attributes): one pointer where a std::vector is three, the
// vector made on the heap when the first item goes in. The IR holds millions of
// ops, so the 16 bytes matter; the extra indirection is paid only by the few
// that use it. `Extra` is kept in the same heap block, for what only a list
// with items (or a parsed one) has: an attribute dictionary's locations.
#pragma once
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pir {

struct NoExtra {};

template <class T, class Extra = NoExtra>
class RareList {
 public:
  RareList() = default;
  // Copies are deep (only instantiated for copyable T).
  RareList(const RareList& o) : block_(o.block_ ? std::make_unique<Block>(*o.block_) : nullptr) {}
  RareList(RareList&&) noexcept = default;
  RareList& operator=(const RareList& o) {
    if (this != &o) block_ = o.block_ ? std::make_unique<Block>(*o.block_) : nullptr;
    return *this;
  }
  RareList& operator=(RareList&&) noexcept = default;
  // Replaces the items (the extra stays).
  RareList& operator=(std::vector<T> items) {
    if (block_) block_->items = std::move(items);
    else if (!items.empty()) block_ = std::make_unique<Block>(Block{std::move(items), Extra{}});
    return *this;
  }

  // The extra: a default one when none was set.
  const Extra& extra() const { return block_ ? block_->extra : noExtra(); }
  // The extra to change; makes the block if there was none.
  Extra& mutableExtra() { return block().extra; }

  // The items as a vector: empty (a shared immutable one) when none were added.
  const std::vector<T>& list() const { return block_ ? block_->items : noItems(); }
  operator const std::vector<T>&() const { return list(); }
  // The vector to change in place; made (empty) if there was none. Once made,
  // it stays the same object until the list is destroyed or another RareList is
  // assigned to it, so a reference to it (an undo record's) outlives clear(),
  // take() and assigning a std::vector.
  std::vector<T>& mutableList() { return block().items; }
  // Takes the items out, leaving the list empty.
  std::vector<T> take() {
    std::vector<T> out;
    if (block_) out.swap(block_->items);
    return out;
  }

  size_t size() const { return block_ ? block_->items.size() : 0; }
  bool empty() const { return !block_ || block_->items.empty(); }
  T* data() { return block_ ? block_->items.data() : nullptr; }
  const T* data() const { return block_ ? block_->items.data() : nullptr; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](size_t i) { return block_->items[i]; }
  const T& operator[](size_t i) const { return block_->items[i]; }
  T& at(size_t i) { return mutableListChecked(i)[i]; }
  const T& at(size_t i) const {
    if (i >= size()) throw std::out_of_range("RareList::at");
    return block_->items[i];
  }
  T& front() { return block_->items.front(); }
  const T& front() const { return block_->items.front(); }
  T& back() { return block_->items.back(); }
  const T& back() const { return block_->items.back(); }

  void push_back(T item) { mutableList().push_back(std::move(item)); }
  template <class... A> T& emplace_back(A&&... args) { return mutableList().emplace_back(std::forward<A>(args)...); }
  void reserve(size_t n) {
    if (n) mutableList().reserve(n);
  }
  // Removes the items (the extra stays).
  void clear() {
    if (block_) block_->items.clear();
  }

 private:
  struct Block {
    std::vector<T> items;
    [[no_unique_address]] Extra extra;
  };
  Block& block() {
    if (!block_) block_ = std::make_unique<Block>();
    return *block_;
  }
  static const Extra& noExtra() {
    static const Extra kNone{};
    return kNone;
  }
  static const std::vector<T>& noItems() {
    static const std::vector<T> kEmpty;
    return kEmpty;
  }
  std::vector<T>& mutableListChecked(size_t i) {
    if (i >= size()) throw std::out_of_range("RareList::at");
    return block_->items;
  }
  std::unique_ptr<Block> block_;  // nullptr: no items and no extra
};

}  // namespace pir
