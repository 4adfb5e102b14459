// The value scope (ir/value_scope.h): numbered names held in runs by prefix,
// every other name in hashed slots, one map to its callers. Each test checks
// the scope against a plain map of name -> value.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace pir {
namespace {

class ValueScopeTest : public ::testing::Test {
 protected:
  std::vector<std::unique_ptr<Value>> values;
  ValueScope scope{values};
  std::map<std::string, Value*> model;

  // A new value of the graph, named `name` (not in scope yet).
  Value* make(const std::string& name) {
    auto v = std::make_unique<Value>();
    v->name = name;
    v->id = static_cast<unsigned>(values.size());
    values.push_back(std::move(v));
    return values.back().get();
  }
  void insert(Value* v) {
    scope.insert(v);
    model[std::string(v->name.view())] = v;
  }
  bool insertIfAbsent(Value* v) {
    const bool added = scope.insertIfAbsent(v);
    EXPECT_EQ(added, model.emplace(std::string(v->name.view()), v).second) << v->name.view();
    return added;
  }
  void erase(Value* v) {
    scope.erase(v);
    auto it = model.find(std::string(v->name.view()));
    if (it != model.end() && it->second == v) model.erase(it);
  }
  // Every name the model holds is found as its value, size() agrees, and
  // forEach visits exactly the model's values once each.
  void expectSameAsModel(const std::vector<std::string>& alsoAbsent = {}) {
    EXPECT_EQ(scope.size(), model.size());
    for (auto& [name, v] : model) EXPECT_EQ(scope.find(name), v) << name;
    for (auto& name : alsoAbsent) {
      if (!model.count(name)) {
        EXPECT_EQ(scope.find(name), nullptr) << name;
      }
    }
    std::multiset<const Value*> seen;
    scope.forEach([&](const Value* v) { seen.insert(v); });
    std::multiset<const Value*> want;
    for (auto& [name, v] : model) want.insert(v);
    EXPECT_EQ(seen, want);
  }
};

TEST_F(ValueScopeTest, NumberedNamesWithTheSameDigitsAreDistinct) {
  // Leading zeros, an empty prefix, and prefixes ending in a digit's neighbours
  // are all different names.
  const std::vector<std::string> names = {"v1", "v01", "v001", "1", "01", "0", "00", "v0", "v",
                                          "x.1", "x1", "x.", "1x", "v1a", "v10", "v100"};
  for (auto& n : names) insert(make(n));
  expectSameAsModel({"v2", "v0001", "x.01", "2", "v1b", ""});
  for (auto& n : names) EXPECT_EQ(scope.find(n)->name.view(), n);
}

TEST_F(ValueScopeTest, LongNumbersAndHugeNumbersAreHeld) {
  // Nine digits and more, and numbers far beyond any run: all held.
  const std::vector<std::string> names = {"v999999999", "v1000000000", "v4294967295", "v4294967296",
                                          "v18446744073709551617", "123456789", "1234567890", "v2000000000"};
  for (auto& n : names) insert(make(n));
  expectSameAsModel({"v99999999", "v0999999999", "4294967296"});
}

TEST_F(ValueScopeTest, ReplaceEraseAndInsertIfAbsent) {
  Value* a = make("h3");
  Value* b = make("h3");
  insert(a);
  EXPECT_FALSE(insertIfAbsent(b));
  EXPECT_EQ(scope.find("h3"), a);
  insert(b);  // replaces
  expectSameAsModel();
  erase(a);  // not the entry: nothing changes
  EXPECT_EQ(scope.find("h3"), b);
  erase(b);
  EXPECT_EQ(scope.find("h3"), nullptr);
  EXPECT_TRUE(insertIfAbsent(a));
  expectSameAsModel();
}

TEST_F(ValueScopeTest, ANumberTheRunCannotTakeYetMovesIntoItWhenReplaced) {
  // v500 comes before its run can take it (hashed); once the run has grown past
  // 500, a replacement lives in the run and the hashed entry goes: one entry.
  Value* early = make("v500");
  insert(early);
  for (int i = 0; i < 400; ++i) insert(make("v" + std::to_string(i)));
  expectSameAsModel({"v400", "v499", "v501"});
  EXPECT_FALSE(insertIfAbsent(make("v500")));
  Value* late = make("v500");
  insert(late);
  expectSameAsModel();
  EXPECT_EQ(scope.find("v500"), late);
  erase(late);
  expectSameAsModel({"v500"});
}

TEST_F(ValueScopeTest, ManyPrefixesBeyondTheRunLimit) {
  // More prefixes than runs: the rest are hashed, and all are found.
  for (size_t p = 0; p < 3 * ValueScope::kMaxRuns; ++p)
    for (int i = 0; i < 5; ++i) insert(make("p" + std::to_string(p) + "_" + std::to_string(i)));
  expectSameAsModel({"p0_5", "p191_9", "p192_0"});
  for (size_t p = 0; p < 3 * ValueScope::kMaxRuns; p += 3) erase(scope.find("p" + std::to_string(p) + "_2"));
  expectSameAsModel({"p0_2", "p3_2"});
}

TEST_F(ValueScopeTest, ClearEmptiesEverything) {
  for (int i = 0; i < 100; ++i) insert(make("t" + std::to_string(i)));
  insert(make("named"));
  scope.clear();
  model.clear();
  expectSameAsModel({"t0", "t99", "named"});
  insert(make("t5"));
  insert(make("named"));
  expectSameAsModel();
}

// Random operations over a small alphabet of names (numbered densely, sparsely,
// with leading zeros, and unnumbered), with a reserve hint that makes the hashed
// slots jump: the scope always agrees with the model.
TEST_F(ValueScopeTest, RandomOperationsAgreeWithAMap) {
  std::mt19937 rng(7);
  std::vector<std::string> alphabet;
  for (int i = 0; i < 300; ++i) alphabet.push_back("a" + std::to_string(i));
  for (int i = 0; i < 40; ++i) alphabet.push_back("b" + std::to_string(i * 97));
  for (int i = 0; i < 20; ++i) alphabet.push_back("c0" + std::to_string(i));
  for (int i = 0; i < 40; ++i) alphabet.push_back(std::to_string(i));
  for (int i = 0; i < 40; ++i) alphabet.push_back("name_" + std::string(1, static_cast<char>('a' + i % 26)) + std::to_string(i / 26) + "x");
  scope.reserve(200);
  for (int step = 0; step < 20000; ++step) {
    const std::string& name = alphabet[rng() % alphabet.size()];
    switch (rng() % 4) {
      case 0: insert(make(name)); break;
      case 1: insertIfAbsent(make(name)); break;
      case 2: {
        auto it = model.find(name);
        if (it != model.end()) erase(it->second);
        else erase(make(name));  // not in scope: a no-op
        break;
      }
      default: {
        auto it = model.find(name);
        EXPECT_EQ(scope.find(name), it == model.end() ? nullptr : it->second) << name;
      }
    }
    if (step % 2000 == 0) expectSameAsModel(alphabet);
  }
  expectSameAsModel(alphabet);
}

}  // namespace
}  // namespace pir
