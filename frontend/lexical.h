// Lexical questions about .pir text that is not (or not yet) a whole input,
// answered by the grammar's own token rules (grammar/grammar.hpp): tools never
// keep a second lexer or keyword list of their own.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pir {

// The spelling of every keyword of the grammar (grammar::keywords), in its order.
const std::vector<std::string_view>& keywordSpellings();

// Calls `visit(name)` (without '%') for every `%name` token of `text` outside
// comments and strings, in order. `text` may end inside a string or a comment
// (an open REPL input). Linear time; no memory per character.
void forEachValueName(std::string_view text, const std::function<void(std::string_view)>& visit);

}  // namespace pir
