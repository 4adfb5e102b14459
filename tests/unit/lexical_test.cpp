// frontend/lexical.h: lexical questions answered by the grammar's own rules.
#include "frontend/lexical.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pir {
namespace {

TEST(Lexical, KeywordsAreTheGrammarsSpellings) {
  const std::vector<std::string_view>& k = keywordSpellings();
  for (std::string_view word : {"ir", "h2d", "graph", "main", "autodiff", "feed", "run", "print", "save", "var",
                                "const", "using", "load", "zeros", "nan", "inf"})
    EXPECT_NE(std::find(k.begin(), k.end(), word), k.end()) << word;
  EXPECT_EQ(std::find(k.begin(), k.end(), "add"), k.end());  // ops are the op table's
}

TEST(Lexical, ValueNamesOutsideCommentsAndStrings) {
  std::vector<std::string> names;
  forEachValueName("%a = add %b.1, 1 # %comment\nsave %c \"%instring\"\n%d = neg %%e \"open %x",
                   [&](std::string_view n) { names.emplace_back(n); });
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b.1", "c", "d", "e"}));
}

}  // namespace
}  // namespace pir
