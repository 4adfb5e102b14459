// The importer's one point of contact with pir itself: a program grown one
// statement of `.pir` text at a time, each statement parsed, type-inferred and
// verified by pir's front end as it arrives (so the importer learns every
// value's type from pir's own shape rules), then printed canonically.
// Everything else in importers/onnx/ speaks only text and the types below.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pir::onnx_import {

// A tensor type as pir prints it: the canonical dtype name ("f32", "i32", ...)
// and the dimensions.
struct PirType {
  std::string dtype;
  std::vector<int64_t> shape;
};

class PirProgram {
 public:
  // `baseDir`: the directory `load("...")` paths are relative to (OUT's).
  explicit PirProgram(std::string baseDir);
  ~PirProgram();
  PirProgram(const PirProgram&) = delete;
  PirProgram& operator=(const PirProgram&) = delete;

  // Adds one top-level item or main-graph statement. Returns pir's diagnostic
  // (without source position: the text is generated) when pir rejects it; the
  // program is then unusable.
  std::optional<std::string> add(std::string_view statement);
  // The type of main-graph value %name (name without the sigil), once defined.
  std::optional<PirType> typeOf(const std::string& name) const;
  // Verifies the whole program and prints it in canonical form (a fixed point of
  // `pir opt`). Returns nullopt and sets `error` when verification fails.
  std::optional<std::string> printCanonical(std::string& error) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pir::onnx_import
