#include "ir/suggest.h"

#include <algorithm>

#include "ir/ir.h"
#include "ir/op_info.h"

namespace pir {

size_t editDistance(std::string_view a, std::string_view b) {
  // Three rolling rows: the transposition step looks two rows back.
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

std::optional<std::string> closestName(std::string_view word, const std::vector<std::string>& candidates) {
  // Any other one-character name is one edit away: no evidence of a typo.
  if (word.size() < 2) return std::nullopt;
  size_t limit = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  size_t bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    // Lengths alone bound the distance from below: skip hopeless candidates cheaply.
    size_t lengthGap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (lengthGap > bestDistance) continue;
    size_t d = editDistance(word, c);
    if (d < bestDistance || (d == bestDistance && best && c < *best)) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates, std::string_view sigil) {
  std::optional<std::string> best = closestName(word, candidates);
  if (!best) return "";
  return "; did you mean '" + std::string(sigil) + *best + "'?";
}

std::string suggestOp(std::string_view name) {
  std::vector<std::string> names;
  for (std::string_view n : allOpNames()) names.emplace_back(n);
  return didYouMean(name, names);
}

std::string suggestValue(const Graph& g, std::string_view name) {
  std::vector<std::string> names;
  g.scope.forEach([&](const Value* v) { names.push_back(v->name); });
  return didYouMean(name, names, "%");
}

std::string suggestGraph(const Module& m, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& [n, g] : m.graphScope) names.push_back(n);
  return didYouMean(name, names, "@");
}

std::string suggestResource(const Module& m, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& [n, r] : m.resourceScope) names.push_back(n);
  return didYouMean(name, names, "$");
}

std::string suggestAttribute(const OpInfo* info, std::string_view key) {
  std::vector<std::string> names;
  if (info)
    for (const AttrSpec& a : info->attrs) names.push_back(a.name);
  for (const AttrSpec& a : placementAttrs()) names.push_back(a.name);
  return didYouMean(key, names);
}

}  // namespace pir
