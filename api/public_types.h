// The public API's enums (pir/tables.h, generated from ir/'s tables) and their
// ir/ twins: the same enumerators with the same values, checked here at
// compile time, so that converting is a cast.
#pragma once
#include <cstddef>
#include <iterator>

#include "ir/dtype.h"
#include "ir/op_enums.h"
#include "ir/op_info.h"
#include "pir/tables.h"

namespace pir::api {

#define PIR_X(e, n, s) static_assert(static_cast<int>(DType::e) == static_cast<int>(::pir::DType::e));
PIR_DTYPES(PIR_X)
#undef PIR_X
static_assert(kNumOpCodes == static_cast<size_t>(::pir::kNumOpCodes));
#define PIR_OP(id, ...) static_assert(static_cast<int>(OpCode::id) == static_cast<int>(::pir::OpCode::id));
#include "ir/ops.def"
#undef PIR_OP
template <class Public, class Internal>
consteval bool sameWords() {
  if (std::size(Public::kWords) != std::size(Internal::kWords)) return false;
  for (size_t i = 0; i < std::size(Public::kWords); ++i)
    if (Public::kWords[i] != Internal::kWords[i]) return false;
  return true;
}
#define PIR_ENUM_VALUE(e, word)
#define PIR_ENUM(Type, values) static_assert(sameWords<EnumWords<Type>, ::pir::EnumTraits<::pir::Type>>(), #Type);
#include "ir/op_enums.def"
#undef PIR_ENUM
#undef PIR_ENUM_VALUE

inline ::pir::DType toIr(DType d) { return static_cast<::pir::DType>(d); }
inline DType fromIr(::pir::DType d) { return static_cast<DType>(d); }
inline ::pir::OpCode toIr(OpCode c) { return static_cast<::pir::OpCode>(c); }
inline OpCode fromIr(::pir::OpCode c) { return static_cast<OpCode>(c); }

}  // namespace pir::api
