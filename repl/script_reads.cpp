#include "repl/script_reads.h"

namespace pir::cli {
namespace {

bool isNameChar(char c) {  // grammar: name_char
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}
bool isIdentChar(char c) { return isNameChar(c) && c != '.'; }  // grammar: ident_char

// grammar: skip (blanks and comments).
size_t skipBlanks(std::string_view t, size_t i) {
  while (i < t.size()) {
    const char c = t[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else {
      break;
    }
  }
  return i;
}

// A `%name` or `$name` target at i: records a %name; returns the position after it,
// or npos when there is no target.
size_t readTarget(std::string_view t, size_t i, std::set<std::string>& names) {
  if (i >= t.size() || (t[i] != '%' && t[i] != '$')) return std::string_view::npos;
  size_t j = i + 1;
  while (j < t.size() && isNameChar(t[j])) ++j;
  if (j == i + 1) return std::string_view::npos;
  if (t[i] == '%') names.emplace(t.substr(i + 1, j - i - 1));
  return j;
}

}  // namespace

std::set<std::string> valuesNamedByCommands(std::string_view text) {
  std::set<std::string> names;
  for (size_t i = 0; i < text.size(); ++i) {
    // A keyword starts where no name does (not after a name character or a sigil).
    if (i > 0 && (isNameChar(text[i - 1]) || text[i - 1] == '%' || text[i - 1] == '$' || text[i - 1] == '@'))
      continue;
    const bool isPrint = text.substr(i, 5) == "print";
    const bool isSave = text.substr(i, 4) == "save";
    if (!isPrint && !isSave) continue;
    size_t j = i + (isPrint ? 5 : 4);
    if (j < text.size() && isIdentChar(text[j])) continue;  // print_tensor, saved, ...
    // print_cmd = 'print' target { ',' target } ;  save_cmd = 'save' target string ;
    for (;;) {
      j = readTarget(text, skipBlanks(text, j), names);
      if (j == std::string_view::npos || isSave) break;
      j = skipBlanks(text, j);
      if (j >= text.size() || text[j] != ',') break;
      ++j;
    }
  }
  return names;
}

}  // namespace pir::cli
