// "Did you mean" (ir/suggest.h), character columns (SourceBuffer::displayColumn)
// and quoted source lines (SourceBuffer::lineText).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/op_info.h"
#include "ir/suggest.h"

namespace pir {
namespace {

TEST(Suggest, EditDistance) {
  EXPECT_EQ(editDistance("add", "add"), 0u);
  EXPECT_EQ(editDistance("ad", "add"), 1u);
  EXPECT_EQ(editDistance("aad", "add"), 1u);       // one transposition
  EXPECT_EQ(editDistance("wieght", "weight"), 1u);  // one transposition
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

TEST(Suggest, EditDistanceStopsPastItsBound) {
  // Within the bound: the exact distance. Past it: some value above the bound.
  EXPECT_EQ(editDistance("kitten", "sitting", 3), 3u);
  EXPECT_GT(editDistance("kitten", "sitting", 2), 2u);
  EXPECT_GT(editDistance("abcdefgh", "stuvwxyz", 1), 1u);
  EXPECT_EQ(editDistance("wieght", "weight", 1), 1u);
  // Longer than the stack rows: the heap path gives the same answers.
  const std::string longA(100, 'a'), longB = std::string(99, 'a') + "b";
  EXPECT_EQ(editDistance(longA, longB), 1u);
  EXPECT_EQ(editDistance(longA, std::string(100, 'b')), 100u);
  EXPECT_GT(editDistance(longA, std::string(100, 'b'), 5), 5u);
}

TEST(Suggest, ClosestWithinAThirdOfTheLength) {
  std::vector<std::string> ops = {"add", "mul", "matmul", "maximum"};
  EXPECT_EQ(pir::closestName("ad", ops), std::optional<std::string>("add"));
  EXPECT_EQ(pir::closestName("matmull", ops), std::optional<std::string>("matmul"));
  EXPECT_EQ(pir::closestName("frobnicate", ops), std::nullopt);
  EXPECT_EQ(pir::closestName("add", ops), std::nullopt);  // the word itself is not a suggestion
  EXPECT_EQ(pir::closestName("x", {"y", "z"}), std::nullopt);  // one character: no evidence
  // "maxmum" is 1 edit from maximum, 3 from matmul.
  EXPECT_EQ(pir::closestName("maxmum", ops), std::optional<std::string>("maximum"));
}

// closestName prunes with length and bag-distance bounds and stops each distance
// early; none of that may change the answer. Reference: the full distance to
// every candidate, the same threshold and tie rule.
TEST(Suggest, PruningNeverChangesTheAnswer) {
  const std::vector<std::string> names = {"add", "sub", "mul", "div", "matmul", "maximum", "minimum", "reduce_sum",
                                          "reduce_max", "transpose", "reshape", "concat", "split", "dynamic_slice",
                                          "scaled_add", "remote_load", "remote_store", "host_load", "abs", "neg"};
  auto reference = [&](const std::string& word) -> std::optional<std::string> {
    if (word.size() < 2) return std::nullopt;
    std::optional<std::string> best;
    size_t bestDistance = std::max<size_t>(1, word.size() / 3) + 1;
    for (const std::string& c : names) {
      if (c == word) continue;
      size_t d = editDistance(word, c);
      if (d < bestDistance || (d == bestDistance && best && c < *best)) bestDistance = d, best = c;
    }
    if (!best)  // an abbreviation the word spells out
      for (const std::string& c : names)
        if (c != word && c.size() >= 3 && word.starts_with(c) && (!best || c.size() > best->size())) best = c;
    return best;
  };
  // Every one- and two-edit variant of every name (deletions, substitutions by a few
  // letters, adjacent swaps), plus words near none of them.
  std::vector<std::string> words = {"zz", "aaaaaaaaaa", "xyzzy", "reduce", "remote", "dynamic_slicer"};
  for (const std::string& n : names)
    for (size_t i = 0; i < n.size(); ++i) {
      words.push_back(n.substr(0, i) + n.substr(i + 1));
      for (char ch : {'a', 'e', 'x', '_'}) words.push_back(n.substr(0, i) + ch + n.substr(i + 1));
      if (i + 1 < n.size()) words.push_back(n.substr(0, i) + n[i + 1] + n[i] + n.substr(i + 2));
      if (i + 2 < n.size()) words.push_back(n.substr(0, i) + n.substr(i + 2));
    }
  size_t suggested = 0;
  for (const std::string& w : words) {
    EXPECT_EQ(pir::closestName(w, names), reference(w)) << w;
    suggested += reference(w).has_value();
  }
  EXPECT_GT(suggested, words.size() / 2);  // the variants mostly do get a suggestion
}

TEST(Suggest, OpNamesComeFromTheOpTable) {
  EXPECT_EQ(suggestOp("matmull"), "; did you mean 'matmul'?");
  EXPECT_EQ(suggestOp("negat"), "; did you mean 'negate'?");  // aliases are candidates too
  EXPECT_EQ(suggestOp("frobnicate"), "");
  EXPECT_EQ(suggestOp(std::string(500, 'q')), "");
}

TEST(Suggest, TiesGoToTheAlphabeticallyFirst) {
  EXPECT_EQ(pir::closestName("ab", {"bb", "aa"}), std::optional<std::string>("aa"));
  EXPECT_EQ(pir::closestName("ab", {"aa", "bb"}), std::optional<std::string>("aa"));
  EXPECT_EQ(didYouMean("wieght", {"weight"}, "%"), "; did you mean '%weight'?");
  EXPECT_EQ(didYouMean("zzzz", {"weight"}, "%"), "");
}

TEST(Columns, CountCodePoints) {
  SourceManager sm;
  uint32_t id = sm.add("t.pir", "a\xC3\xA9" "b\n\xE6\x97\xA5x\n\xF0\x9F\x98\x80y\n\xFFz\n");
  const SourceBuffer& b = sm.buffer(id);
  EXPECT_EQ(b.displayColumn(1, 1), 1u);
  EXPECT_EQ(b.displayColumn(1, 4), 3u);  // 'b' after a two-byte é
  EXPECT_EQ(b.displayColumn(2, 4), 2u);  // 'x' after a three-byte CJK character
  EXPECT_EQ(b.displayColumn(3, 5), 2u);  // 'y' after a four-byte emoji
  EXPECT_EQ(b.displayColumn(4, 2), 2u);  // invalid UTF-8: one column per byte
}

// The replicas of a traced run quote their instructions' lines from several
// threads at once, the first of them before any line was ever quoted.
TEST(Columns, LinesAreQuotedFromManyThreadsAtOnce) {
  constexpr int kLines = 20000, kThreads = 8;
  std::string text;
  for (int i = 1; i <= kLines; ++i) text += "line " + std::to_string(i) + "\n";
  for (int round = 0; round < 20; ++round) {
    SourceManager sm;
    const SourceBuffer& b = sm.buffer(sm.add("t.pir", text));
    std::atomic<int> ready{0}, wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) {
        }
        for (int k = 0; k < 200; ++k) {
          const int line = 1 + (t * 7919 + k * 104729) % kLines;
          if (b.lineText(static_cast<uint32_t>(line)) != "line " + std::to_string(line)) wrong.fetch_add(1);
        }
      });
    for (auto& th : threads) th.join();
    ASSERT_EQ(wrong.load(), 0) << "round " << round;
  }
}

TEST(Columns, CaretAlignsAfterWideCharacters) {
  SourceManager sm;
  uint32_t id = sm.add("t.pir", "\xE6\x97\xA5\xE6\x9C\xAC x\n");  // 日本 x
  DiagnosticEngine diags(sm);
  std::string text = diags.format({Severity::Error, SourceLoc{id, 1, 8}, "here", {}});
  EXPECT_EQ(text, "t.pir:1:4: error: here\n  \xE6\x97\xA5\xE6\x9C\xAC x\n       ^\n");
}

// A long line is shown as a window of 160 bytes around the caret, marked "...",
// with the caret under the same character.
TEST(Columns, ALongLineIsShownAroundTheCaret) {
  SourceManager sm;
  const std::string line = std::string(1000, 'a') + "X" + std::string(1000, 'b');
  uint32_t id = sm.add("t.pir", line + "\n");
  DiagnosticEngine diags(sm);
  std::string text = diags.format({Severity::Error, SourceLoc{id, 1, 1001}, "here", {}});
  EXPECT_EQ(text, "t.pir:1:1001: error: here\n  ..." + std::string(80, 'a') + "X" + std::string(79, 'b') + "...\n  " +
                      std::string(3 + 80, ' ') + "^\n");
  // Near the start: no cut before; the window never splits a character.
  const std::string wide = "x" + std::string(200, 'c') + "\xE6\x97\xA5";
  uint32_t id2 = sm.add("w.pir", wide + "\n");
  text = diags.format({Severity::Error, SourceLoc{id2, 1, 1}, "here", {}});
  EXPECT_EQ(text, "w.pir:1:1: error: here\n  x" + std::string(159, 'c') + "...\n  ^\n");
  text = diags.format({Severity::Error, SourceLoc{id2, 1, 202}, "end", {}});
  EXPECT_EQ(text, "w.pir:1:202: error: end\n  ..." + wide.substr(121) + "\n     " + std::string(80, ' ') + "^\n");
}

}  // namespace
}  // namespace pir

// A name that differs only in case comes first, even for one character
// (`%w` for `%W`); a spelt-out word gets its abbreviation (`permutation` for
// `perm`), which no edit-distance threshold reaches.
TEST(Suggest, CaseAndAbbreviations) {
  const std::vector<std::string> values = {"W", "x", "b"};
  EXPECT_EQ(pir::closestName("w", values), "W");
  EXPECT_EQ(pir::closestName("X", values), "x");
  const std::vector<std::string> attrs = {"perm", "axis", "tile_set"};
  EXPECT_EQ(pir::closestName("permutation", attrs), "perm");
  EXPECT_EQ(pir::closestName("axes", attrs), "axis");
  EXPECT_EQ(pir::closestName("pe", attrs), std::nullopt);
  EXPECT_EQ(pir::closestName("zzzzzz", attrs), std::nullopt);
}

// Every attribute of every op in the op table, misspelt (its last two letters
// swapped) or spelt with a wrong case, gets that attribute as the suggestion.
TEST(Suggest, EveryAttributeOfEveryOp) {
  int checked = 0;
  for (std::string_view name : pir::allOpNames()) {
    const pir::OpInfo& info = pir::opInfo(*pir::lookupOp(name));
    for (const pir::AttrSpec& a : info.attrs) {
      if (a.name.size() < 4) continue;  // `a`, `b`: a short name is a few edits from many
      std::string swapped = a.name;
      std::swap(swapped[swapped.size() - 2], swapped[swapped.size() - 1]);
      std::string upper = a.name;
      upper[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[0])));
      for (const std::string& typo : {swapped, upper}) {
        if (typo == a.name) continue;
        EXPECT_EQ(pir::suggestAttribute(&info, typo), "; did you mean '" + a.name + "'?") << name << " " << typo;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}
