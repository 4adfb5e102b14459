#include "ir/einsum_spec.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace pir::einsum {

namespace {

bool lettersOnly(std::string_view s, std::string& problem) {
  for (char c : s)
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      problem = std::string("'") + c + "' is not a letter (ellipses are not supported)";
      return false;
    }
  for (size_t i = 0; i < s.size(); ++i)
    if (s.find(s[i], i + 1) != std::string_view::npos) {
      problem = std::string("letter '") + s[i] + "' repeats within one operand (a diagonal is not supported)";
      return false;
    }
  return true;
}

std::string trimmed(std::string_view s) {
  std::string r;
  for (char c : s)
    if (c != ' ') r += c;
  return r;
}

}  // namespace

std::optional<Plan> plan(std::string_view equation, const std::vector<int64_t>& aShape,
                         const std::vector<int64_t>& bShape, std::string& problem) {
  const std::string eq = trimmed(equation);
  Plan p;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  const size_t comma = lhs.find(',');
  if (comma == std::string::npos || lhs.find(',', comma + 1) != std::string::npos) {
    problem = "the equation must name exactly two operands";
    return std::nullopt;
  }
  p.a = lhs.substr(0, comma);
  p.b = lhs.substr(comma + 1);
  if (!lettersOnly(p.a, problem) || !lettersOnly(p.b, problem)) return std::nullopt;
  if (p.a.size() != aShape.size() || p.b.size() != bShape.size()) {
    problem = "the equation's operands have " + std::to_string(p.a.size()) + " and " + std::to_string(p.b.size()) +
              " letters, the operands " + std::to_string(aShape.size()) + " and " + std::to_string(bShape.size()) +
              " axes";
    return std::nullopt;
  }
  std::map<char, int64_t> dim;
  for (const auto& [letters, shape] : {std::pair{&p.a, &aShape}, std::pair{&p.b, &bShape}})
    for (size_t i = 0; i < letters->size(); ++i) {
      auto [it, fresh] = dim.emplace((*letters)[i], (*shape)[i]);
      if (!fresh && it->second != (*shape)[i]) {
        problem = std::string("letter '") + (*letters)[i] + "' is " + std::to_string(it->second) + " and " +
                  std::to_string((*shape)[i]);
        return std::nullopt;
      }
    }
  if (arrow == std::string::npos) {  // implicit output: the letters seen once, alphabetically
    for (const auto& [c, d] : dim)
      if ((p.a.find(c) == std::string::npos) != (p.b.find(c) == std::string::npos)) p.out += c;
  } else {
    p.out = eq.substr(arrow + 2);
    if (!lettersOnly(p.out, problem)) return std::nullopt;
    for (char c : p.out)
      if (!dim.count(c)) {
        problem = std::string("output letter '") + c + "' names no operand axis";
        return std::nullopt;
      }
  }
  auto in = [](const std::string& s, char c) { return s.find(c) != std::string::npos; };
  std::string batch, left, right, contracted, keptA, keptB;
  for (char c : p.a) {
    if (in(p.b, c)) (in(p.out, c) ? batch : contracted) += c;
    else if (in(p.out, c)) left += c;
    else p.sumA.push_back(static_cast<int64_t>(p.a.find(c)));
  }
  for (char c : p.b)
    if (!in(p.a, c)) {
      if (in(p.out, c)) right += c;
      else p.sumB.push_back(static_cast<int64_t>(p.b.find(c)));
    }
  for (char c : p.a)
    if (in(p.b, c) || in(p.out, c)) keptA += c;
  for (char c : p.b)
    if (in(p.a, c) || in(p.out, c)) keptB += c;
  auto perm = [](const std::string& from, const std::string& to) {
    std::vector<int64_t> r;
    for (char c : to) r.push_back(static_cast<int64_t>(from.find(c)));
    return r;
  };
  p.permA = perm(keptA, batch + left + contracted);
  p.permB = perm(keptB, batch + contracted + right);
  p.permOut = perm(batch + left + right, p.out);
  for (char c : batch) p.batchDims.push_back(dim[c]), p.batch *= dim[c];
  for (char c : left) p.leftDims.push_back(dim[c]), p.m *= dim[c];
  for (char c : right) p.rightDims.push_back(dim[c]), p.n *= dim[c];
  for (char c : contracted) p.contractedDims.push_back(dim[c]), p.k *= dim[c];
  for (char c : p.out) p.outShape.push_back(dim[c]);
  return p;
}

std::optional<std::string> gradientEquation(const Plan& p, int which) {
  const std::string& self = which == 0 ? p.a : p.b;
  const std::string& other = which == 0 ? p.b : p.a;
  for (char c : self)
    if (other.find(c) == std::string::npos && p.out.find(c) == std::string::npos) return std::nullopt;
  return which == 0 ? p.out + "," + other + "->" + self : other + "," + p.out + "->" + self;
}

}  // namespace pir::einsum
