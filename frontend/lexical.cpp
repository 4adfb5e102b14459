#include "frontend/lexical.h"

#include <string>

#include "grammar/grammar.hpp"

namespace pir {
namespace {

namespace pg = tao::pegtl;

template <char... Cs>
struct Spelling {
  static constexpr char text[] = {Cs..., '\0'};
};
template <char... Cs>
constexpr std::string_view spellingOf(const pg::ascii::keyword<Cs...>*) {
  return Spelling<Cs...>::text;
}
template <class... Keywords>
std::vector<std::string_view> spellingsOf(pg::type_list<Keywords...>) {
  return {spellingOf(static_cast<const Keywords*>(nullptr))...};
}

// The token stream as far as value names go: a comment or a string is one
// token (so a `%` inside it is not a name), a `%name` is one, and any other
// byte is skipped. An unterminated string runs to the end of the text.
namespace names {
using namespace grammar;
struct comment : seq<one<'#'>, star<not_one<'\n'>>> {};
struct open_string : seq<string_open, string_body, opt<string_close>> {};
struct value_ref : seq<one<'%'>, value_name_chars> {};
struct token : sor<comment, open_string, value_ref, pg::any> {};
struct text : star<token> {};

template <class Rule>
struct action : pg::nothing<Rule> {};
template <>
struct action<value_name_chars> {
  template <class Input>
  static void apply(const Input& in, const std::function<void(std::string_view)>& visit) {
    visit(std::string_view(in.begin(), in.size()));
  }
};
}  // namespace names

}  // namespace

const std::vector<std::string_view>& keywordSpellings() {
  static const std::vector<std::string_view> spellings = spellingsOf(grammar::keywords{});
  return spellings;
}

void forEachValueName(std::string_view text, const std::function<void(std::string_view)>& visit) {
  pg::memory_input<pg::tracking_mode::lazy> in(text.data(), text.size(), "");
  try {
    pg::parse<names::text, names::action>(in, visit);
  } catch (const pg::parse_error&) {
    // A malformed escape in a string: the names before it were visited; the
    // parser reports the input itself.
  }
}

}  // namespace pir
