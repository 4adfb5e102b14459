#include "ir/suggest.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "ir/ir.h"
#include "ir/op_info.h"

namespace pir {

size_t editDistance(std::string_view a, std::string_view b, size_t bound) {
  // Three rolling rows (the transposition step looks two rows back) in one buffer,
  // on the stack for names of usual length: suggestions run on every unknown name.
  const size_t width = b.size() + 1;
  std::array<size_t, 3 * 64> small;
  std::vector<size_t> large;
  size_t* rows = small.data();
  if (3 * width > small.size()) {
    large.resize(3 * width);
    rows = large.data();
  }
  size_t* prev2 = rows;
  size_t* prev = rows + width;
  size_t* row = rows + 2 * width;
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    size_t rowMin = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], prev2[j - 2] + 1);
      rowMin = std::min(rowMin, row[j]);
    }
    // A row's minimum never decreases from one row to the next (each cell is at
    // least the smaller of the previous row's minimum and the one before plus one),
    // and the distance is at least the last row's minimum: stop once past the bound.
    if (rowMin > bound) return rowMin;
    std::swap(prev2, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

namespace {

bool equalIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The abbreviation a spelt-out word stands for (`perm` for `permutation`): the
// longest candidate of at least three characters that `word` starts with.
std::optional<std::string_view> abbreviationOf(std::string_view word, std::span<const std::string_view> candidates) {
  constexpr size_t kMinPrefix = 3;
  std::optional<std::string_view> best;
  for (std::string_view c : candidates)
    if (c != word && c.size() >= kMinPrefix && word.starts_with(c) && (!best || c.size() > best->size())) best = c;
  return best;
}

}  // namespace

std::optional<std::string> closestName(std::string_view word, std::span<const std::string_view> candidates) {
  // A name that differs only in case (`%w` for `%W`) is the likeliest slip of all.
  std::optional<std::string_view> sameLetters;
  for (std::string_view c : candidates)
    if (c != word && equalIgnoringCase(c, word) && (!sameLetters || c < *sameLetters)) sameLetters = c;
  if (sameLetters) return std::string(*sameLetters);
  // Any other one-character name is one edit away: no evidence of a typo.
  if (word.size() < 2) return std::nullopt;
  size_t limit = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string_view> best;
  size_t bestDistance = limit + 1;
  // Character counts of `word`, for the bag distance below (restored after each use).
  std::array<int32_t, 256> counts{};
  for (unsigned char ch : word) ++counts[ch];
  for (std::string_view c : candidates) {
    if (c == word) continue;
    // Lengths alone bound the distance from below: skip hopeless candidates cheaply.
    size_t lengthGap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (lengthGap > bestDistance) continue;
    // So does the bag distance, in linear time: an edit adds, removes or replaces
    // one character (a transposition none), so the characters one string has
    // beyond the other, counted with multiplicity, are at most the distance.
    size_t extraInCandidate = 0;
    for (unsigned char ch : c)
      if (counts[ch]-- <= 0) ++extraInCandidate;
    for (unsigned char ch : c) ++counts[ch];
    const size_t extraInWord = word.size() - (c.size() - extraInCandidate);
    if (std::max(extraInCandidate, extraInWord) > bestDistance) continue;
    // Only a distance up to the best so far matters (equal ones for the tie rule).
    size_t d = editDistance(word, c, bestDistance);
    if (d < bestDistance || (d == bestDistance && best && c < *best)) {
      bestDistance = d;
      best = c;
    }
  }
  if (!best) best = abbreviationOf(word, candidates);
  if (!best) return std::nullopt;
  return std::string(*best);
}

std::optional<std::string> closestName(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return closestName(word, std::span<const std::string_view>(views));
}

namespace {
std::string didYouMeanSuffix(const std::optional<std::string>& best, std::string_view sigil) {
  if (!best) return "";
  return "; did you mean '" + std::string(sigil) + *best + "'?";
}
}  // namespace

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates, std::string_view sigil) {
  return didYouMeanSuffix(closestName(word, candidates), sigil);
}

std::string didYouMean(std::string_view word, std::span<const std::string_view> candidates, std::string_view sigil) {
  return didYouMeanSuffix(closestName(word, candidates), sigil);
}

std::string suggestOp(std::string_view name) {
  static const std::vector<std::string_view> names = allOpNames();  // the op table is fixed
  return didYouMean(name, names);
}

// The candidates are views of names the IR owns: nothing is copied per suggestion.
std::string suggestValue(const Graph& g, std::string_view name) {
  std::vector<std::string_view> names;
  g.scope.forEach([&](const Value* v) { names.push_back(v->name); });
  return didYouMean(name, names, "%");
}

std::string suggestGraph(const Module& m, std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& [n, g] : m.graphScope) names.push_back(n);
  return didYouMean(name, names, "@");
}

std::string suggestResource(const Module& m, std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& [n, r] : m.resourceScope) names.push_back(n);
  return didYouMean(name, names, "$");
}

std::string suggestAttribute(const OpInfo* info, std::string_view key) {
  std::vector<std::string_view> names;
  if (info)
    for (const AttrSpec& a : info->attrs) names.push_back(a.name);
  for (const AttrSpec& a : placementAttrs()) names.push_back(a.name);
  return didYouMean(key, names);
}

}  // namespace pir
