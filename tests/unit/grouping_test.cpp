// Replica groupings (runtime.md §5).
#include <gtest/gtest.h>

#include "ir/grouping.h"

using namespace pir;

namespace {

TEST(Grouping, SpecExamplesForEightReplicas) {
  EXPECT_EQ(assignment(8, {1, 2}), (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(assignment(8, {2, 4}), (std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(assignment(8, {4, 2}), (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(assignment(8, allReplicas(8)), (std::vector<int>(8, 0)));
  EXPECT_EQ(assignment(8, {1, 1}), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(assignment(8, {8, 1}), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(Grouping, DefaultGroupSize) {
  EXPECT_EQ(defaultGroupSize(8, 1), 8);
  EXPECT_EQ(defaultGroupSize(8, 2), 4);
  EXPECT_EQ(defaultGroupSize(8, 8), 1);
  EXPECT_EQ(defaultGroupSize(8, 0), 0);  // then rejected by groupingError
}

TEST(Grouping, Validation) {
  EXPECT_EQ(groupingError({1, 2}, 8), std::nullopt);
  EXPECT_EQ(groupingError({2, 4}, 8), std::nullopt);
  EXPECT_EQ(groupingError({4, 2}, 8), std::nullopt);
  EXPECT_EQ(groupingError({1, 1}, 1), std::nullopt);
  EXPECT_EQ(groupingError({1, 3}, 6), std::nullopt);

  const auto contains = [](const std::optional<std::string>& error, const std::string& part) {
    return error && error->find(part) != std::string::npos;
  };
  EXPECT_TRUE(contains(groupingError({3, 2}, 8), "stride must divide"));
  EXPECT_TRUE(contains(groupingError({0, 2}, 8), "stride must be positive"));
  EXPECT_TRUE(contains(groupingError({-2, 2}, 8), "stride must be positive"));
  EXPECT_TRUE(contains(groupingError({1, 0}, 8), "group_size must be positive"));
  EXPECT_TRUE(contains(groupingError({1, 3}, 8), "group_size must divide"));
  EXPECT_TRUE(contains(groupingError({2, 2}, 8), "stride * group_size"));
  EXPECT_TRUE(contains(groupingError({2, 8}, 8), "stride * group_size"));
  EXPECT_TRUE(contains(groupingError({3, 2}, 8), "(3, 2) is not valid for 8 replicas"));
  EXPECT_TRUE(contains(groupingError({1, 1}, 0), "replica count must be positive"));
}

TEST(Grouping, ReadFromAnAttribute) {
  EXPECT_EQ(readGrouping(nullptr, 8), (ReplicaGrouping{1, 8}));
  Attr none;
  none.kind = Attr::Kind::Word;
  none.s = "none";
  EXPECT_EQ(readGrouping(&none, 8), (ReplicaGrouping{1, 8}));
  Attr stride;
  stride.kind = Attr::Kind::Int;
  stride.i = 2;
  EXPECT_EQ(readGrouping(&stride, 8), (ReplicaGrouping{2, 4}));  // group_size defaults to R / stride
  Attr pair;
  pair.kind = Attr::Kind::Tuple;
  pair.items = {stride, stride};
  EXPECT_EQ(readGrouping(&pair, 8), (ReplicaGrouping{2, 2}));
  EXPECT_TRUE(groupingError(readGrouping(&pair, 8), 8));
  Attr triple = pair;
  triple.items.push_back(stride);
  EXPECT_TRUE(groupingError(readGrouping(&triple, 8), 8));  // malformed: rejected, never all replicas
}

TEST(Grouping, MembersGroupsAndRanks) {
  const ReplicaGroups strided(8, {2, 4});
  EXPECT_EQ(strided.numGroups(), 2);
  EXPECT_EQ(strided.groupSize(), 4);
  EXPECT_EQ(strided.members(0), (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(strided.members(1), (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(strided.groupOf(5), 1);
  EXPECT_EQ(strided.rankInGroup(5), 2);

  const ReplicaGroups blocks(8, {1, 2});
  EXPECT_EQ(blocks.numGroups(), 4);
  EXPECT_EQ(blocks.members(3), (std::vector<int>{6, 7}));
  EXPECT_EQ(blocks.rankInGroup(7), 1);

  const ReplicaGroups all(4, allReplicas(4));
  EXPECT_EQ(all.numGroups(), 1);
  EXPECT_EQ(all.members(0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(all.numReplicas(), 4);

  // Every valid grouping of 12 replicas partitions them into equal groups.
  for (int64_t stride = 1; stride <= 12; ++stride)
    for (int64_t size = 1; size <= 12; ++size) {
      if (groupingError({stride, size}, 12)) continue;
      const ReplicaGroups g(12, {stride, size});
      EXPECT_EQ(g.numGroups() * size, 12) << stride << "," << size;
      for (int group = 0; group < g.numGroups(); ++group) {
        ASSERT_EQ(static_cast<int64_t>(g.members(group).size()), size);
        for (size_t k = 1; k < g.members(group).size(); ++k)
          EXPECT_EQ(g.members(group)[k] - g.members(group)[k - 1], stride);
      }
    }
}

}  // namespace
