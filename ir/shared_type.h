// A value's tensor type, held as a shared immutable TensorType: 16 bytes where
// a TensorType is 32 plus a heap block for its shape, and the values of one type
// (the results of a chain of elementwise ops, nearly every value of a program)
// can hold one object between them. Reads as a const TensorType (`v->type->shape`,
// or where a `const TensorType&` is wanted); changed only by assigning a whole
// new type, which never affects another holder.
#pragma once
#include <memory>
#include <utility>

#include "ir/dtype.h"

namespace pir {

class SharedType {
 public:
  // f32[] (rank 0), as a default TensorType.
  SharedType() = default;
  explicit SharedType(TensorType t) : p_(std::make_shared<const TensorType>(std::move(t))) {}
  SharedType& operator=(TensorType t) {
    p_ = std::make_shared<const TensorType>(std::move(t));
    return *this;
  }

  const TensorType& get() const { return p_ ? *p_ : defaultType(); }
  operator const TensorType&() const { return get(); }  // NOLINT: reads as the type it holds
  const TensorType* operator->() const { return &get(); }
  const TensorType& operator*() const { return get(); }

  // Whether both hold the same object (then their types are equal).
  bool sameObject(const SharedType& o) const { return p_ == o.p_; }

  friend bool operator==(const SharedType& a, const SharedType& b) { return a.p_ == b.p_ || a.get() == b.get(); }
  friend bool operator==(const SharedType& a, const TensorType& b) { return a.get() == b; }

 private:
  static const TensorType& defaultType() {
    static const TensorType kDefault{};
    return kDefault;
  }
  std::shared_ptr<const TensorType> p_;  // nullptr: the default type
};

}  // namespace pir
