// Typed attribute dictionaries for creating ops, the writing half of
// ir/op_attrs.h, from the same ops.def specs:
//
//   build::Sum{}.axis(axes).keepdims(true)        -> the AttrDict {axis = [...], keepdims = true}
//   b.create({x}, build::Sum{}.axis(0))            -> OpBuilder::create(OpCode::Sum, {x}, ...)
//
// There is one setter per attribute name of ops.def (ir/op_attr_names.def); its
// parameter is the spec type's C++ type for the row (int64_t, double, bool,
// DType, std::vector<int64_t>, the enum class of an enum(...) spec, ...). A name
// the row does not declare takes `NotAnAttributeOf`, which nothing converts to,
// so a misspelt or foreign attribute does not compile, nor does a value of the
// wrong type (an enum attribute takes its enum, never a word).
#pragma once
#include <cstdint>
#include <type_traits>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ir/attr.h"
#include "ir/dtype.h"
#include "ir/op_attrs.h"
#include "ir/op_enums.h"
#include "ir/op_info.h"

namespace pir::build {

// The parameter type of a setter whose name the row does not declare.
struct NotAnAttributeOf {
  NotAnAttributeOf() = delete;
};

// An `axes` value: one axis (written `axis = 1`), a list, or `all`.
class AxesArg {
 public:
  AxesArg(int64_t axis) : value_(axis) {}
  AxesArg(int axis) : value_(static_cast<int64_t>(axis)) {}
  AxesArg(std::vector<int64_t> axes) : value_(std::move(axes)) {}
  static AxesArg all() { return AxesArg(std::monostate{}); }
  Attr attr() const {
    if (const int64_t* axis = std::get_if<int64_t>(&value_)) return Attr::integer(*axis);
    if (const auto* axes = std::get_if<std::vector<int64_t>>(&value_)) {
      std::vector<Attr> items;
      for (int64_t a : *axes) items.push_back(Attr::integer(a));
      return Attr::list(std::move(items));
    }
    return Attr::word("all");
  }

 private:
  explicit AxesArg(std::monostate) : value_(std::monostate{}) {}
  std::variant<std::monostate, int64_t, std::vector<int64_t>> value_;
};

namespace detail {
// The setter's parameter type for spec type T (enum type E when T is Enum).
template <AttrType T, EnumId E> struct ArgOf { using type = const Attr&; };  // group, graph, values
template <EnumId E> struct ArgOf<AttrType::Int, E> { using type = int64_t; };
template <EnumId E> struct ArgOf<AttrType::Float, E> { using type = double; };
template <EnumId E> struct ArgOf<AttrType::Bool, E> { using type = bool; };
template <EnumId E> struct ArgOf<AttrType::Str, E> { using type = std::string_view; };
template <EnumId E> struct ArgOf<AttrType::DType, E> { using type = DType; };
template <EnumId E> struct ArgOf<AttrType::Ints, E> { using type = const std::vector<int64_t>&; };
template <EnumId E> struct ArgOf<AttrType::Floats, E> { using type = const std::vector<double>&; };
template <EnumId E> struct ArgOf<AttrType::Axes, E> { using type = AxesArg; };
template <EnumId E> struct ArgOf<AttrType::Resource, E> { using type = std::string_view; };
template <EnumId E> struct ArgOf<AttrType::Enum, E> { using type = typename EnumType<E>::type; };

template <OpCode Code, attrs::Name N>
constexpr attrs::AttrDecl kDecl = attrs::declOf(Code, N.view());

template <OpCode Code, attrs::Name N>
using Arg = std::conditional_t<(kDecl<Code, N>.index >= 0),
                               typename ArgOf<kDecl<Code, N>.type, kDecl<Code, N>.enumType>::type, NotAnAttributeOf>;

// The Attr of a value, in the form the parser gives the written text.
inline Attr toAttr(int64_t v) { return Attr::integer(v); }
inline Attr toAttr(double v) { return Attr::real(v); }
inline Attr toAttr(bool v) { return Attr::boolean(v); }
inline Attr toAttr(std::string_view v, AttrType t) {
  Attr a = Attr::string(std::string(v));
  if (t == AttrType::Resource) a.kind = Attr::Kind::Resource;  // the name without '$'
  return a;
}
inline Attr toAttr(DType v) { return Attr::word(std::string(dtypeName(v))); }
inline Attr toAttr(const std::vector<int64_t>& v) {
  std::vector<Attr> items;
  for (int64_t x : v) items.push_back(Attr::integer(x));
  return Attr::list(std::move(items));
}
inline Attr toAttr(const std::vector<double>& v) {
  std::vector<Attr> items;
  for (double x : v) items.push_back(Attr::real(x));
  return Attr::list(std::move(items));
}
inline Attr toAttr(const AxesArg& v) { return v.attr(); }
inline Attr toAttr(const Attr& v) { return v; }
template <class E>
  requires std::is_enum_v<E>
Attr toAttr(E v) {
  return Attr::word(std::string(enumWord(v)));
}
}  // namespace detail

// The attributes of one new op of row `Code`; `dict()` is what OpBuilder::create takes.
template <OpCode Code>
class Attrs {
 public:
  static constexpr OpCode code = Code;

  // The attribute `N`, typed by the row (a name it does not declare does not compile).
  template <attrs::Name N>
  Attrs& set(detail::Arg<Code, N> v) {
    static_assert(detail::kDecl<Code, N>.index >= 0, "this ops.def row declares no such attribute");
    constexpr AttrType t = detail::kDecl<Code, N>.type;
    if constexpr (t == AttrType::Str || t == AttrType::Resource) dict_.set(std::string(N.view()), detail::toAttr(v, t));
    else dict_.set(std::string(N.view()), detail::toAttr(v));
    return *this;
  }

#define PIR_ATTR(name) \
  Attrs& name(detail::Arg<Code, #name> v) { return set<#name>(v); }
#include "ir/op_attr_names.def"
#undef PIR_ATTR

  const AttrDict& dict() const& { return dict_; }
  AttrDict dict() && { return std::move(dict_); }

 private:
  AttrDict dict_;
};

// One builder per ops.def row: build::Sum{}.axis(0).
#define PIR_OP(id, text, mn, mx, attrs, infer, grad, flags, kernel, operands, cost) using id = Attrs<OpCode::id>;
#include "ir/ops.def"
#undef PIR_OP

}  // namespace pir::build
