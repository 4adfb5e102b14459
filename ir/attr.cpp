#include "ir/attr.h"

#include <cmath>
#include <limits>

namespace pir {

bool Attr::equals(const Attr& o) const {
  // Numbers compare by value across Int/Float, so `{a = 1}` equals a default of 1.0.
  if (isNumber() && o.isNumber()) {
    if (kind == Kind::Int && o.kind == Kind::Int) return i == o.i;
    double x = number(), y = o.number();
    return x == y || (x != x && y != y);  // nan equals nan: the same written value
  }
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Bool: return b == o.b;
    case Kind::String: case Kind::Word: case Kind::Graph: case Kind::Value: case Kind::Resource:
      return s == o.s;
    case Kind::List: case Kind::Tuple:
      if (items.size() != o.items.size()) return false;
      for (size_t k = 0; k < items.size(); ++k)
        if (!items[k].equals(o.items[k])) return false;
      return true;
    case Kind::Int: case Kind::Float: break;
  }
  return false;
}

int64_t Attr::toInt() const {
  if (kind == Kind::Int) return i;
  if (kind != Kind::Float || std::isnan(f)) return 0;
  // 2^63 is the first double beyond int64.
  if (f >= 0x1p63) return std::numeric_limits<int64_t>::max();
  if (f < -0x1p63) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(f);
}

}  // namespace pir
