// pir names for ONNX names (docs/importing.md "Names"): every character outside
// [A-Za-z0-9_] becomes `_`, a leading digit (or an empty name) gets a `v`
// prefix, and a name already taken gets `_2`, `_3`, ... in order of appearance.
// One table per pir namespace (`$` streams, `%` values).
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace pir::onnx_import {

// The rule without the clash suffix.
std::string sanitizeName(std::string_view onnxName);

class NameTable {
 public:
  // A fresh pir name for `onnxName` (never returned before by this table).
  std::string claim(std::string_view onnxName);
  // Marks `name` taken, as is (a name the importer generates itself).
  bool taken(const std::string& name) const { return used_.count(name) != 0; }

 private:
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> nextSuffix_;  // base -> next suffix to try
};

}  // namespace pir::onnx_import
