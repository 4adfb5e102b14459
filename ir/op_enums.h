// The enum attribute types of ir/ops.def as C++ enums (the list is
// ir/op_enums.def). An enum attribute is stored in the IR as its word (the
// printer and the parser see text); the typed getters of ir/op_attrs.h read it
// as the enum, and the builders of ir/op_build.h write the enum's word, so code
// outside this header never compares an enum attribute's text.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace pir {

#define PIR_ENUM_VALUE(enumerator, word) enumerator,
#define PIR_ENUM(Type, values) enum class Type : uint8_t { values };
#include "ir/op_enums.def"
#undef PIR_ENUM
#undef PIR_ENUM_VALUE

// Names the enum types (what a spec's `enum(Name)` refers to).
enum class EnumId : uint8_t {
#define PIR_ENUM(Type, values) Type,
#include "ir/op_enums.def"
#undef PIR_ENUM
};

// Per enum type: its id, its name in ops.def, its words in enumerator order.
template <class E>
struct EnumTraits;
// The C++ type of an id.
template <EnumId>
struct EnumType;

#define PIR_ENUM_VALUE(enumerator, word) word,
#define PIR_ENUM(Type, values)                                  \
  template <>                                                   \
  struct EnumTraits<Type> {                                     \
    static constexpr EnumId kId = EnumId::Type;                 \
    static constexpr std::string_view kName = #Type;            \
    static constexpr std::string_view kWords[] = {values};      \
  };                                                            \
  template <>                                                   \
  struct EnumType<EnumId::Type> {                               \
    using type = Type;                                          \
  };
#include "ir/op_enums.def"
#undef PIR_ENUM
#undef PIR_ENUM_VALUE

// Every enum type by id, for the spec parser and the table built from it.
struct EnumDesc {
  std::string_view name;
  std::span<const std::string_view> words;
};
inline constexpr EnumDesc kEnumTypes[] = {
#define PIR_ENUM(Type, values) {EnumTraits<Type>::kName, EnumTraits<Type>::kWords},
#include "ir/op_enums.def"
#undef PIR_ENUM
};
constexpr const EnumDesc& enumDesc(EnumId id) { return kEnumTypes[static_cast<size_t>(id)]; }

// The enum type named `name` in a spec (`enum(CollectiveOp)`), if any.
constexpr std::optional<EnumId> findEnumType(std::string_view name) {
  for (size_t i = 0; i < std::size(kEnumTypes); ++i)
    if (kEnumTypes[i].name == name) return static_cast<EnumId>(i);
  return std::nullopt;
}
// The position of `word` among an enum type's words, if it is one.
constexpr std::optional<size_t> enumIndex(EnumId id, std::string_view word) {
  const EnumDesc& d = enumDesc(id);
  for (size_t i = 0; i < d.words.size(); ++i)
    if (d.words[i] == word) return i;
  return std::nullopt;
}

// The word `.pir` writes for `e`.
template <class E>
constexpr std::string_view enumWord(E e) {
  return EnumTraits<E>::kWords[static_cast<size_t>(e)];
}
// The enumerator whose word is `word`, if any.
template <class E>
constexpr std::optional<E> parseEnum(std::string_view word) {
  if (auto i = enumIndex(EnumTraits<E>::kId, word)) return static_cast<E>(*i);
  return std::nullopt;
}

}  // namespace pir
