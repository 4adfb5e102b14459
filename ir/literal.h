// Tensor data as written in the source: DATA and INIT of language.md §5.
#pragma once
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ir/dtype.h"
#include "ir/source.h"

namespace pir {

struct Literal {
  enum class Kind : uint8_t {
    Data,     // a scalar or nested list: `shape` is its nesting, `values` row-major
    Load,     // load("file.npy"): `path` as written, `resolvedPath` relative to the naming file
    Uniform,  // uniform(low, high, seed): args = {low, high, seed}
    Normal,   // normal(mean, std, seed): args = {mean, std, seed}
    Zeros,
    Ones,
  };
  Kind kind = Kind::Data;
  Shape shape;                 // Data: [] for a scalar; [0] for `[]`
  std::vector<double> values;  // Data: numbers; true/false are 1/0. Exact for every int dtype we store.
  // Data: the integers a double does not hold exactly (beyond 2^53), as written, by
  // element index: a diagnostic quotes 18446744073709551615, not its double 2^64.
  std::vector<std::pair<size_t, std::string>> inexactIntegers;
  bool hasBool = false;        // Data: some element was written true/false
  bool hasNumber = false;      // Data: some element was written as a number
  std::string path, resolvedPath;
  std::vector<double> args;
  SourceLoc loc;

  bool isScalar() const { return kind == Kind::Data && shape.empty(); }
  bool isGenerator() const { return kind != Kind::Data && kind != Kind::Load; }
  // List data (not a scalar) fits tensor shape `s`: its nesting is `s`, or it is
  // `[]` and `s` has a zero dimension (every zero-size shape has one value, written
  // `[]`, which is also how `print` shows f32[0,3]).
  bool listFits(const Shape& s) const {
    if (shape == s) return true;
    return shape.size() == 1 && shape[0] == 0 && std::find(s.begin(), s.end(), 0) != s.end();
  }
};

}  // namespace pir
