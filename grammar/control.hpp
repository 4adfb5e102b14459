// The PEGTL control of the .pir grammar: raises located "expected ..." errors
// from the table in errors.hpp and tracks open brackets so that an unclosed
// one is reported with the place it was opened. Kept apart from the actions.
//
// The parse state (the single PEGTL state) must provide:
//   void openBracket(const iterator& at);          // a bracket opened at `at`
//   void closeBracket();                           // the innermost bracket closed
//   [[noreturn]] void syntaxError(const iterator& at, const char* message);
//   [[noreturn]] void unclosedBracket(const iterator& at, const char* message, const char* what);
//   [[noreturn]] void errorAtOpener(const char* message);
// where `iterator` is the PEGTL input's iterator (line/column/data).
#pragma once
#include "grammar/errors.hpp"

namespace pir::grammar {

template <typename Rule>
struct control : pg::normal<Rule> {
  template <typename Input, typename... States>
  static void start(const Input& in, States&... st) {
    if constexpr (opens_bracket<Rule>) (st.openBracket(in.iterator()), ...);
  }
  template <typename Input, typename... States>
  static void failure(const Input& in, States&... st) {
    if constexpr (opens_bracket<Rule>) (st.closeBracket(), ...);
  }
  template <typename Input, typename... States>
  static void success(const Input& in, States&... st) {
    if constexpr (closes_bracket<Rule> != nullptr) (st.closeBracket(), ...);
  }

  template <typename Input, typename... States>
  [[noreturn]] static void raise(const Input& in, States&... st) {
    static_assert(error_message<Rule> != nullptr, "every commit point needs an error message in errors.hpp");
    if constexpr (sizeof...(States) == 0) {
      throw pg::parse_error(error_message<Rule>, in);
    } else if constexpr (error_at_opener<Rule>) {
      (st.errorAtOpener(error_message<Rule>), ...);
    } else if constexpr (closes_bracket<Rule> != nullptr) {
      (st.unclosedBracket(in.iterator(), error_message<Rule>, closes_bracket<Rule>), ...);
    } else {
      (st.syntaxError(in.iterator(), error_message<Rule>), ...);
    }
    // Unreachable: the state's error functions throw.
    throw pg::parse_error(error_message<Rule>, in);
  }
};

}  // namespace pir::grammar
