#include "importers/onnx/names.h"

namespace pir::onnx_import {

std::string sanitizeName(std::string_view onnxName) {
  std::string out;
  out.reserve(onnxName.size() + 1);
  for (char c : onnxName) {
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    out += keep ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), 'v');
  return out;
}

std::string NameTable::claim(std::string_view onnxName) {
  std::string base = sanitizeName(onnxName);
  if (used_.insert(base).second) return base;
  // The next suffix per base keeps a run of clashes linear: each claim tries
  // each suffix at most once over the table's life (a suffix taken meanwhile
  // by another base, e.g. "a_2" itself, is skipped).
  int& next = nextSuffix_[base];
  if (next < 2) next = 2;
  for (;; ++next) {
    std::string candidate = base + "_" + std::to_string(next);
    if (used_.insert(candidate).second) {
      ++next;
      return candidate;
    }
  }
}

}  // namespace pir::onnx_import
