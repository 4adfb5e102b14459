// Attribute values (language.md §5): numbers, booleans, strings, dtype names,
// enum words, graph/value/resource names, lists and tuples, nested.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/dtype.h"
#include "ir/rare_list.h"
#include "ir/source.h"

namespace pir {

struct Attr {
  enum class Kind : uint8_t {
    Int,       // i
    Float,     // f (also nan, inf, -inf)
    Bool,      // b
    String,    // s (unescaped)
    Word,      // s: a bare identifier (enum value, `none`, `all`, ...); dtype words stay Words
    Graph,     // s: graph name without '@'
    Value,     // s: value name without '%'
    Resource,  // s: resource name without '$'
    List,      // items, written [..]
    Tuple,     // items, written (..)
  };
  Kind kind = Kind::Int;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Attr> items;
  SourceLoc loc;

  static Attr integer(int64_t v) { Attr a; a.kind = Kind::Int; a.i = v; return a; }
  static Attr real(double v) { Attr a; a.kind = Kind::Float; a.f = v; return a; }
  static Attr boolean(bool v) { Attr a; a.kind = Kind::Bool; a.b = v; return a; }
  static Attr word(std::string w) { Attr a; a.kind = Kind::Word; a.s = std::move(w); return a; }
  static Attr string(std::string w) { Attr a; a.kind = Kind::String; a.s = std::move(w); return a; }
  static Attr list(std::vector<Attr> v) { Attr a; a.kind = Kind::List; a.items = std::move(v); return a; }
  static Attr tuple(std::vector<Attr> v) { Attr a; a.kind = Kind::Tuple; a.items = std::move(v); return a; }

  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double number() const { return kind == Kind::Int ? static_cast<double>(i) : f; }
  // The integer value: `i` for Int; a Float (where the verifier allows one) is
  // truncated and saturated at the int64 range, nan -> 0 (never an undefined cast).
  int64_t toInt() const;
  bool isWord(std::string_view w) const { return kind == Kind::Word && s == w; }
  // Structural equality, ignoring locations; Int 1 equals Float 1.0.
  bool equals(const Attr& o) const;
};

// Where a parsed dictionary was written: its '{' and its keys.
struct AttrLocations {
  SourceLoc loc;
  std::vector<SourceLoc> keyLocs;  // parallel to the first entries (may be shorter)
};

// Attributes in the order written. Lookups are linear: dictionaries are tiny.
// Every op holds one and most are empty, so the entries and their locations
// (only a parsed `{...}` has them) are out of line, in one block: a
// dictionary is 8 bytes, not 64.
struct AttrDict {
  RareList<std::pair<std::string, Attr>, AttrLocations> entries;

  // Where the '{' is written; invalid when not parsed from text.
  SourceLoc loc() const { return entries.extra().loc; }
  // Where key i is written, when parsed from text (diagnostics about a key point
  // at it, not at its value); invalid otherwise.
  SourceLoc keyLoc(size_t i) const {
    const AttrLocations& l = entries.extra();
    return i < l.keyLocs.size() ? l.keyLocs[i] : SourceLoc{};
  }
  // Records the locations of a parsed dictionary: its '{' and its keys, parallel
  // to the first entries (may be shorter).
  void setLocations(SourceLoc brace, std::vector<SourceLoc> keyLocs) {
    if (!brace.valid() && keyLocs.empty() && !entries.extra().loc.valid() && entries.extra().keyLocs.empty()) return;
    entries.mutableExtra() = AttrLocations{brace, std::move(keyLocs)};
  }

  const Attr* find(std::string_view key) const {
    for (auto& [k, v] : entries)
      if (k == key) return &v;
    return nullptr;
  }
  Attr* find(std::string_view key) {
    for (auto& [k, v] : entries)
      if (k == key) return &v;
    return nullptr;
  }
  void set(std::string key, Attr v) {
    if (Attr* a = find(key)) *a = std::move(v);
    else entries.emplace_back(std::move(key), std::move(v));
  }
  bool empty() const { return entries.empty(); }
};

}  // namespace pir
