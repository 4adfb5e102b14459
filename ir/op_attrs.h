// Typed attribute accessors over ir/ops.def, in the spirit of MLIR ODS getters.
//
//   attrs::Softmax{op}.axis()              -> int64_t (ops.def: axis:int=-1)
//   attrs::Conv{op}.stride()               -> std::optional<std::vector<int64_t>> (stride:ints?)
//   attrs::View<attrs::kernelFamily("Reduce")>{op}.keepdims()  -> bool, for every row of a family
//   attrs::Softmax{op}.get<"axis">()       -> the same, by name
//   attrs::Softmax{op}.axisLoc()           -> where the attribute was written (else the op's location)
//
// An attribute's name, type and default are written once, in its ops.def row.
// A View is scoped to a set of rows (one op, an Infer rule, a Kernel family,
// or a union); reading an attribute checks the scope at compile time:
//   - some row of the scope declares the name (a misspelt name is a build error);
//   - every row declaring it gives it one type;
//   - the C++ type follows the spec type (table below), wrapped in std::optional
//     when a row declares it optional (`name:type?`) or does not declare it
//     (a pointer type instead reads nullptr when absent).
// The value is the written one, else the row's default as ir/op_info.cpp parsed
// it (findAttrOrDefault, the one reading of defaults); `none` on an optional
// attribute reads as absent. The accessors assume a verified op (attribute
// kinds checked by ir/verifier.cpp); on an unverified one they never crash but
// read a mistyped value as the type's zero.
//
//   int -> int64_t            float -> double           bool -> bool
//   str -> string_view        dtype -> DType            ints, shape -> vector<int64_t>
//   enum(E) -> E, the enum class of ir/op_enums.def (pir::CollectiveOp, ...)
//   floats -> vector<double>  axes -> AxesValue         group, graph, values -> const Attr*
//   resource -> string_view (the name without '$')
#pragma once
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <type_traits>
#include <string_view>
#include <vector>

#include "ir/attr_spec.h"
#include "ir/ir.h"
#include "ir/op_enums.h"
#include "ir/op_info.h"

namespace pir::attrs {

// A string literal as a template argument: get<"axis">.
template <size_t N>
struct Name {
  char text[N]{};
  consteval Name(const char (&s)[N]) {
    for (size_t i = 0; i < N; ++i) text[i] = s[i];
  }
  constexpr std::string_view view() const { return {text, N - 1}; }
};

// ---- the table's columns at compile time ------------------------------------

namespace table {
inline constexpr const auto& kAttrSpec = attrspec::kRowSpecs;
inline constexpr std::string_view kInfer[] = {
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) #infer,
#include "ir/ops.def"
#undef PIR_OP
};
inline constexpr std::string_view kKernel[] = {
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) #kernel,
#include "ir/ops.def"
#undef PIR_OP
};
}  // namespace table

// One attribute's declaration in one row, as ir/attr_spec.h read the spec
// (attrspec::kTable, the entries ir/op_info.cpp builds the run-time table from).
struct AttrDecl {
  int index = -1;  // position in the row's spec; -1: not declared
  AttrType type = AttrType::Int;
  AttrPresence presence = AttrPresence::Required;
  EnumId enumType{};  // when type is Enum
};

using attrspec::forEachEntry;
using attrspec::trimSpaces;

constexpr AttrDecl declOf(OpCode code, std::string_view name) {
  const std::span<const attrspec::Entry> entries = attrspec::rowEntries(code);
  for (size_t i = 0; i < entries.size(); ++i) {
    const attrspec::Entry& e = entries[i];
    if (e.name != name) continue;
    if (e.error) throw "ops.def: malformed attribute spec";  // not a constant expression: a build error
    return AttrDecl{static_cast<int>(i), e.type, e.presence, e.enumType.value_or(EnumId{})};
  }
  return AttrDecl{};
}

// ---- scopes: sets of ops.def rows -------------------------------------------

// A bit per row. Plain members, not an array: GCC 12 treats class template
// arguments that differ only inside an array member as the same argument.
struct OpSet {
  static_assert(kNumOpCodes <= 256, "OpSet holds 256 rows");
  uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0;
  constexpr uint64_t word(size_t i) const { return i < 64 ? w0 : i < 128 ? w1 : i < 192 ? w2 : w3; }
  constexpr void add(size_t i) {
    uint64_t& w = i < 64 ? w0 : i < 128 ? w1 : i < 192 ? w2 : w3;
    w |= uint64_t{1} << (i % 64);
  }
  constexpr bool contains(size_t i) const { return (word(i) >> (i % 64)) & 1; }
  constexpr bool contains(OpCode c) const { return contains(static_cast<size_t>(c)); }
  constexpr bool empty() const { return (w0 | w1 | w2 | w3) == 0; }
  constexpr OpSet operator|(const OpSet& o) const { return {w0 | o.w0, w1 | o.w1, w2 | o.w2, w3 | o.w3}; }
};

template <class... Codes>
consteval OpSet ops(Codes... codes) {
  OpSet s;
  (s.add(static_cast<size_t>(codes)), ...);
  return s;
}
// The rows whose Infer column is `rule` (the ops ir/infer.cpp's infer##rule serves).
consteval OpSet inferRule(std::string_view rule) {
  OpSet s;
  for (size_t i = 0; i < std::size(table::kInfer); ++i)
    if (table::kInfer[i] == rule) s.add(i);
  return s;
}
// The rows whose Kernel column is `family` or `family(Fn)` (the ops one VM
// preparer serves).
consteval OpSet kernelFamily(std::string_view family) {
  OpSet s;
  for (size_t i = 0; i < std::size(table::kKernel); ++i)
    if (table::kKernel[i].substr(0, table::kKernel[i].find('(')) == family) s.add(i);
  return s;
}

// What reading attribute `name` over scope `s` gives, or why it may not.
struct ScopedDecl {
  bool declared = false;  // by some row of the scope
  bool oneType = true;    // every declaring row agrees on the type
  bool always = true;     // every row of the scope has a value (required or defaulted)
  AttrType type = AttrType::Int;
  EnumId enumType{};      // when type is Enum
};
constexpr ScopedDecl scopedDecl(const OpSet& s, std::string_view name) {
  ScopedDecl r;
  for (size_t i = 0; i < static_cast<size_t>(kNumOpCodes); ++i) {
    if (!s.contains(i)) continue;
    const AttrDecl d = declOf(static_cast<OpCode>(i), name);
    if (d.index < 0 || d.presence == AttrPresence::Optional) r.always = false;
    if (d.index < 0) continue;
    if (r.declared && (d.type != r.type || d.enumType != r.enumType)) r.oneType = false;
    r.declared = true;
    r.type = d.type;
    r.enumType = d.enumType;
  }
  return r;
}

// ---- values -----------------------------------------------------------------

// An `axes` attribute: `all` (the default of the reductions) or a list.
struct AxesValue {
  bool all = true;
  std::vector<int64_t> axes;  // as written (not normalised) when !all
};

namespace detail {
template <AttrType T> struct ValueOf;  // Enum: Typed below
template <> struct ValueOf<AttrType::Int> { using type = int64_t; };
template <> struct ValueOf<AttrType::Float> { using type = double; };
template <> struct ValueOf<AttrType::Bool> { using type = bool; };
template <> struct ValueOf<AttrType::Str> { using type = std::string_view; };
template <> struct ValueOf<AttrType::DType> { using type = DType; };
template <> struct ValueOf<AttrType::Ints> { using type = std::vector<int64_t>; };
template <> struct ValueOf<AttrType::Floats> { using type = std::vector<double>; };
template <> struct ValueOf<AttrType::Axes> { using type = AxesValue; };
template <> struct ValueOf<AttrType::Group> { using type = const Attr*; };
template <> struct ValueOf<AttrType::Graph> { using type = const Attr*; };
template <> struct ValueOf<AttrType::Values> { using type = const Attr*; };
template <> struct ValueOf<AttrType::Resource> { using type = std::string_view; };

// Out of line (ir/op_attrs.cpp): the written value or the row's default
// (findAttrOrDefault), and the conversions of a present value.
// The one reading of defaults (ir/infer.h's findAttrOrDefault calls it).
const Attr* lookup(OpCode code, const AttrDict& attrs, std::string_view name);
int64_t asInt(const Attr& a);
double asFloat(const Attr& a);
bool asBool(const Attr& a);
std::string_view asWord(const Attr& a);
DType asDType(const Attr& a);
std::vector<int64_t> asInts(const Attr& a);
std::vector<double> asFloats(const Attr& a);
AxesValue asAxes(const Attr& a);
// An enum attribute's enumerator (the first for a word not of its type: an unverified op).
template <class E>
E asEnum(const Attr& a) {
  return parseEnum<E>(asWord(a)).value_or(E{});
}

// The C++ type of spec type T (enum type E when T is Enum).
template <AttrType T, EnumId E>
struct Typed {
  using type = typename ValueOf<T>::type;
};
template <EnumId E>
struct Typed<AttrType::Enum, E> {
  using type = typename EnumType<E>::type;
};

template <AttrType T, EnumId E>
typename Typed<T, E>::type convert(const Attr& a) {
  if constexpr (T == AttrType::Enum) return asEnum<typename Typed<T, E>::type>(a);
  else if constexpr (T == AttrType::Int) return asInt(a);
  else if constexpr (T == AttrType::Float) return asFloat(a);
  else if constexpr (T == AttrType::Bool) return asBool(a);
  else if constexpr (T == AttrType::Str || T == AttrType::Resource) return asWord(a);
  else if constexpr (T == AttrType::DType) return asDType(a);
  else if constexpr (T == AttrType::Ints) return asInts(a);
  else if constexpr (T == AttrType::Floats) return asFloats(a);
  else if constexpr (T == AttrType::Axes) return asAxes(a);
  else return &a;
}
}  // namespace detail

// ---- views ------------------------------------------------------------------

template <OpSet Scope>
class View {
  static_assert(!Scope.empty(), "attrs::View over no ops.def row (a misspelt Infer rule or Kernel family?)");

 public:
  explicit View(const Op& op) : View(op.code, op.attrs, op.loc) {}
  // The attributes of a declaration before its op exists (the verifier's `var` checks).
  View(OpCode code, const AttrDict& attrs, SourceLoc loc) : code_(code), attrs_(attrs), loc_(loc) {
    assert(Scope.contains(code) && "op outside the View's scope");
  }

  // The attribute `N`, typed by the rows of the scope.
  template <Name N>
  auto get() const {
    constexpr ScopedDecl d = scopedDecl(Scope, N.view());
    static_assert(d.declared, "no ops.def row of this scope declares the attribute (misspelt?)");
    static_assert(d.oneType, "ops.def rows of this scope give the attribute different types: narrow the scope");
    using T = typename detail::Typed<d.type, d.enumType>::type;
    const Attr* a = detail::lookup(code_, attrs_, N.view());
    if constexpr (d.always || std::is_pointer_v<T>) {
      return a ? detail::convert<d.type, d.enumType>(*a) : T{};  // a pointer: nullptr when absent
    } else {
      return a ? std::optional<T>(detail::convert<d.type, d.enumType>(*a)) : std::nullopt;
    }
  }
  // Where attribute `N` was written, else the op's location (for diagnostics).
  template <Name N>
  SourceLoc loc() const {
    static_assert(scopedDecl(Scope, N.view()).declared, "no ops.def row of this scope declares the attribute (misspelt?)");
    const Attr* a = attrs_.find(N.view());
    return a && a->loc.valid() ? a->loc : loc_;
  }
  // Whether `N` was written on the op (as opposed to defaulted).
  template <Name N>
  bool written() const {
    static_assert(scopedDecl(Scope, N.view()).declared, "no ops.def row of this scope declares the attribute (misspelt?)");
    return attrs_.find(N.view()) != nullptr;
  }

  // Named getters, one per attribute name of ops.def (kAttributeNames below);
  // each compiles only where its scope declares the name (the static_asserts of get).
#define PIR_ATTR(name)                                    \
  auto name() const { return this->template get<#name>(); } \
  SourceLoc name##Loc() const { return this->template loc<#name>(); }
#include "ir/op_attr_names.def"
#undef PIR_ATTR

 private:
  OpCode code_;
  const AttrDict& attrs_;
  SourceLoc loc_;
};

// One View per ops.def row: attrs::Softmax{op}.axis().
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) using id = View<ops(OpCode::id)>;
#include "ir/ops.def"
#undef PIR_OP

// ---- compile-time checks over the table -------------------------------------

inline constexpr std::string_view kAttributeNames[] = {
#define PIR_ATTR(name) #name,
#include "ir/op_attr_names.def"
#undef PIR_ATTR
};

// Every attribute ops.def declares has a named getter, and every named getter is
// an attribute some row declares.
consteval bool namesMatchTable() {
  for (std::string_view spec : table::kAttrSpec) {
    bool ok = true;
    forEachEntry(spec, [&](int, std::string_view entry) {
      std::string_view name = trimSpaces(entry.substr(0, entry.find(':')));
      bool listed = false;
      for (std::string_view n : kAttributeNames) listed = listed || n == name;
      ok = ok && listed;
    });
    if (!ok) return false;
  }
  for (std::string_view n : kAttributeNames) {
    bool declared = false;
    for (size_t i = 0; i < std::size(table::kAttrSpec) && !declared; ++i)
      declared = declOf(static_cast<OpCode>(i), n).index >= 0;
    if (!declared) return false;
  }
  return true;
}
static_assert(namesMatchTable(), "ir/op_attr_names.def must list exactly the attribute names of ir/ops.def");

}  // namespace pir::attrs
