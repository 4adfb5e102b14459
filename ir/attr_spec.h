// The grammar of ops.def's attribute specs, once, as constexpr code, and the
// table's specs read with it once, at compile time (kTable): the typed accessors
// (ir/op_attrs.h) look declarations up there, and the op table (ir/op_info.cpp)
// builds its AttrSpecs from the same entries at start-up, converting only the
// default texts into values. ir/op_info.cpp static_asserts that every row reads
// without error, so nothing in a spec fails at run time.
//
//   spec  := [entry {"," entry}]
//   entry := name ":" type ["?" | "=" default]
//   type  := int | float | bool | str | dtype | shape | ints | floats | axes
//          | group | graph | values | resource | num_or_tensor | "enum(" EnumName ")"
//
// An enum type names a type of ir/op_enums.def; its default is one of its words.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "ir/op_enums.h"
#include "ir/op_info.h"

namespace pir::attrspec {

constexpr std::string_view trimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Calls f(index, entry) for each top-level comma-separated entry of a spec
// (commas inside [], () or "" do not split; empty entries are skipped).
template <class F>
constexpr void forEachEntry(std::string_view spec, F f) {
  int depth = 0, index = 0;
  bool inString = false;
  size_t start = 0;
  for (size_t i = 0; i <= spec.size(); ++i) {
    const char c = i < spec.size() ? spec[i] : ',';
    if (inString) {
      if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '(') ++depth;
    else if (c == ']' || c == ')') --depth;
    else if (c == ',' && depth == 0) {
      std::string_view entry = trimSpaces(spec.substr(start, i - start));
      if (!entry.empty()) f(index++, entry);
      start = i + 1;
    }
  }
}

// One entry as read; `error` is null when it is well formed.
struct Entry {
  std::string_view name;
  AttrType type = AttrType::Int;
  AttrPresence presence = AttrPresence::Required;
  std::optional<EnumId> enumType;  // when type is Enum
  std::string_view defaultText;    // when presence is Defaulted
  const char* error = nullptr;
};

constexpr Entry parseEntry(std::string_view entry) {
  Entry e;
  const size_t colon = entry.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    e.error = "entry without 'name:type'";
    return e;
  }
  e.name = trimSpaces(entry.substr(0, colon));
  std::string_view rest = trimSpaces(entry.substr(colon + 1));
  if (const size_t eq = rest.find('='); eq != std::string_view::npos) {
    e.defaultText = trimSpaces(rest.substr(eq + 1));
    rest = trimSpaces(rest.substr(0, eq));
    e.presence = AttrPresence::Defaulted;
  } else if (!rest.empty() && rest.back() == '?') {
    rest = trimSpaces(rest.substr(0, rest.size() - 1));
    e.presence = AttrPresence::Optional;
  }
  if (rest.starts_with("enum(") && rest.ends_with(")")) {
    e.type = AttrType::Enum;
    e.enumType = findEnumType(trimSpaces(rest.substr(5, rest.size() - 6)));
    if (!e.enumType) e.error = "enum(...) names no type of ir/op_enums.def";
    else if (e.presence == AttrPresence::Defaulted && !enumIndex(*e.enumType, e.defaultText))
      e.error = "default is not one of the enum's words";
    return e;
  }
  constexpr std::pair<std::string_view, AttrType> kTypes[] = {
      {"int", AttrType::Int},           {"float", AttrType::Float},   {"bool", AttrType::Bool},
      {"str", AttrType::Str},           {"dtype", AttrType::DType},   {"shape", AttrType::Ints},
      {"ints", AttrType::Ints},         {"floats", AttrType::Floats}, {"axes", AttrType::Axes},
      {"group", AttrType::Group},       {"graph", AttrType::Graph},   {"values", AttrType::Values},
      {"resource", AttrType::Resource}, {"num_or_tensor", AttrType::Float},
  };
  for (auto& [word, type] : kTypes)
    if (word == rest) return e.type = type, e;
  e.error = "unknown attribute type";
  return e;
}

// The first error of a whole spec (a malformed entry, a repeated name), or null.
constexpr const char* specError(std::string_view spec) {
  const char* error = nullptr;
  forEachEntry(spec, [&](int index, std::string_view entry) {
    if (error) return;
    const Entry e = parseEntry(entry);
    if (e.error) error = e.error;
    forEachEntry(spec, [&](int other, std::string_view prior) {
      if (other < index && parseEntry(prior).name == e.name) error = "duplicate attribute";
    });
  });
  return error;
}

// ---- the table's specs, read once, at compile time -------------------------------

inline constexpr std::string_view kRowSpecs[] = {
#define PIR_OP(id, text, mn, mx, attrSpec, infer, grad, flags, kernel, operands, cost) attrSpec,
#include "ir/ops.def"
#undef PIR_OP
};
// Attributes every op accepts (runtime.md §7 placement).
inline constexpr std::string_view kPlacementSpec =
    "ipu:int?, tile_set:enum(TileSetChoice)=compute, tile:int?, tiles:ints?";

consteval size_t entryCount(std::string_view spec) {
  size_t n = 0;
  forEachEntry(spec, [&](int, std::string_view) { ++n; });
  return n;
}
consteval size_t totalEntries() {
  size_t n = 0;
  for (std::string_view spec : kRowSpecs) n += entryCount(spec);
  return n;
}

// Every row's entries, in row order, each row's in spec order.
struct ReadTable {
  struct Row {
    size_t first = 0, count = 0;
  };
  std::array<Entry, totalEntries()> entries{};
  std::array<Row, std::size(kRowSpecs)> rows{};
};
consteval ReadTable readTable() {
  ReadTable t;
  size_t next = 0;
  for (size_t r = 0; r < std::size(kRowSpecs); ++r) {
    t.rows[r].first = next;
    forEachEntry(kRowSpecs[r], [&](int, std::string_view entry) { t.entries[next++] = parseEntry(entry); });
    t.rows[r].count = next - t.rows[r].first;
  }
  return t;
}
inline constexpr ReadTable kTable = readTable();

consteval auto readPlacement() {
  std::array<Entry, entryCount(kPlacementSpec)> a{};
  forEachEntry(kPlacementSpec, [&](int i, std::string_view entry) { a[static_cast<size_t>(i)] = parseEntry(entry); });
  return a;
}
inline constexpr auto kPlacementEntries = readPlacement();

// The entries of row `code`'s spec.
constexpr std::span<const Entry> rowEntries(OpCode code) {
  const ReadTable::Row r = kTable.rows[static_cast<size_t>(code)];
  return {kTable.entries.data() + r.first, r.count};
}

}  // namespace pir::attrspec
