#include "repl/feed_save.h"

namespace pir::cli {

bool parseNamedPath(const std::string& text, NamedPath& out, std::string& problem) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    problem = "expected NAME=FILE.npy, got '" + text + "'";
    return false;
  }
  out.name = text.substr(0, eq);
  out.path = text.substr(eq + 1);
  return true;
}

}  // namespace pir::cli
