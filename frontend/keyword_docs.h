// The keywords of the language as documentation: `pir help WORD`, `pir help
// keywords` and the keyword reference of docs/language.md §13, all generated
// from grammar/keywords.def (the test docs_keywords_current fails when the
// docs are stale), and the did-you-mean of a misspelt keyword.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pir {

struct KeywordDoc {
  std::string_view word, kind, syntax, meaning, section;
};

std::span<const KeywordDoc> keywordDocs();
std::span<const std::string_view> keywordNames();
const KeywordDoc* findKeyword(std::string_view word);

// `pir help WORD`: the keyword's kind, syntax, meaning and section; nullopt
// when WORD is no keyword.
std::optional<std::string> keywordHelp(std::string_view word);
// `pir help keywords`: one line per keyword.
std::string keywordReferenceText();
// `pir help keywords --markdown`: the table of docs/language.md §13.
std::string keywordReferenceMarkdown();

// The keyword a word that starts a statement most likely misspells, among
// those that can start one there: in a graph or main body the statements
// (var, const, return, exchange), at top level also the top-level items and
// session commands; nullopt when none is close (ir/suggest.h's threshold).
std::optional<std::string> closestStatementKeyword(std::string_view word, bool inBody);

}  // namespace pir
