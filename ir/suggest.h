// "Did you mean" suggestions for misspelt names (ops, %values, @graphs,
// $resources, attribute keys, REPL meta-commands), as clang and rustc give.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pir {

struct Graph;
class Module;
struct OpInfo;

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions:
// `aad` -> `add` is one edit). Once the distance is certain to exceed `bound`,
// returns some value above `bound` without finishing the table.
size_t editDistance(std::string_view a, std::string_view b, size_t bound = SIZE_MAX);

// The candidate closest to `word`, if it is close enough to be a likely typo:
// first one that differs only in case (`%w` for `%W`); else at most max(1, len/3)
// edits (clang's threshold), nothing for a one-character word; else the
// abbreviation `word` spells out (`perm` for `permutation`: the longest
// candidate of at least three characters that `word` starts with).
// Never `word` itself. Ties go to the alphabetically first candidate, so the
// answer does not depend on the candidates' order (hash-map scopes).
std::optional<std::string> closestName(std::string_view word, std::span<const std::string_view> candidates);
std::optional<std::string> closestName(std::string_view word, const std::vector<std::string>& candidates);

// "; did you mean 'SIGIL' + best + "'?" or "" when nothing is close: a suffix for
// an "unknown ..." message.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates, std::string_view sigil = "");
std::string didYouMean(std::string_view word, std::span<const std::string_view> candidates, std::string_view sigil = "");

// The suffixes for the builder's and verifier's "unknown ..." messages.
std::string suggestOp(std::string_view name);                                  // op names and aliases
std::string suggestValue(const Graph& g, std::string_view name);               // %names of g
std::string suggestGraph(const Module& m, std::string_view name);              // @graphs
std::string suggestResource(const Module& m, std::string_view name);           // $streams and buffers
std::string suggestAttribute(const OpInfo* info, std::string_view key);        // the op's keys + placement

}  // namespace pir
