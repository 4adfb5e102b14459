#include "frontend/keyword_docs.h"

#include <array>
#include <vector>

#include "ir/suggest.h"

namespace pir {
namespace {

constexpr KeywordDoc kKeywords[] = {
#define PIR_KEYWORD(id, word, kind, syntax, meaning, section) {word, kind, syntax, meaning, section},
#include "grammar/keywords.def"
#undef PIR_KEYWORD
};

constexpr auto kNames = [] {
  std::array<std::string_view, std::size(kKeywords)> names{};
  for (size_t i = 0; i < names.size(); ++i) names[i] = kKeywords[i].word;
  return names;
}();

bool startsAStatement(const KeywordDoc& k, bool inBody) {
  return k.kind == "statement" || (!inBody && (k.kind == "top-level item" || k.kind == "session command"));
}

}  // namespace

std::span<const KeywordDoc> keywordDocs() { return kKeywords; }
std::span<const std::string_view> keywordNames() { return kNames; }

const KeywordDoc* findKeyword(std::string_view word) {
  for (const KeywordDoc& k : kKeywords)
    if (k.word == word) return &k;
  return nullptr;
}

std::optional<std::string> keywordHelp(std::string_view word) {
  const KeywordDoc* k = findKeyword(word);
  if (!k) return std::nullopt;
  std::string text = std::string(k->word) + ": " + std::string(k->kind) + " (docs/language.md " +
                     std::string(k->section) + ")\n\n  " + std::string(k->syntax) + "\n\n";
  // The meaning wrapped at 80 columns.
  size_t column = 0;
  std::string_view rest = k->meaning;
  while (!rest.empty()) {
    // A `code span` is not broken across lines.
    size_t space = rest.find(' ');
    if (size_t tick = rest.find('`'); tick < space) {
      size_t close = rest.find('`', tick + 1);
      space = close == std::string_view::npos ? std::string_view::npos : rest.find(' ', close);
    }
    std::string_view word = rest.substr(0, space);
    if (column > 0 && column + 1 + word.size() > 80) {
      text += '\n';
      column = 0;
    } else if (column > 0) {
      text += ' ';
      ++column;
    }
    text += word;
    column += word.size();
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  return text + "\n";
}

std::string keywordReferenceText() {
  std::string text;
  for (const KeywordDoc& k : kKeywords) {
    std::string left = "  " + std::string(k.word);
    text += left + std::string(left.size() < 17 ? 17 - left.size() : 1, ' ') + std::string(k.syntax) + '\n';
  }
  return text + "\n`pir help WORD` explains one.\n";
}

std::string keywordReferenceMarkdown() {
  std::string text =
      "| keyword | kind | form | meaning | see |\n"
      "|---|---|---|---|---|\n";
  // A '|' inside a table cell must be escaped.
  auto cell = [](std::string_view s) {
    std::string escaped;
    for (char c : s) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
    return escaped;
  };
  for (const KeywordDoc& k : kKeywords)
    text += "| `" + std::string(k.word) + "` | " + std::string(k.kind) + " | `" + cell(k.syntax) + "` | " +
            cell(k.meaning) + " | " + std::string(k.section) + " |\n";
  return text;
}

std::optional<std::string> closestStatementKeyword(std::string_view word, bool inBody) {
  std::vector<std::string_view> candidates;
  for (const KeywordDoc& k : kKeywords)
    if (startsAStatement(k, inBody)) candidates.push_back(k.word);
  return closestName(word, candidates);
}

}  // namespace pir
