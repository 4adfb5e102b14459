// Replica groupings (runtime.md §5).
#include <gtest/gtest.h>

#include "vm/grouping.h"

using namespace pir::vm;

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
  EXPECT_EQ(groupingError(8, 1, 2), std::nullopt);
  EXPECT_EQ(groupingError(8, 2, 4), std::nullopt);
  EXPECT_EQ(groupingError(8, 4, 2), std::nullopt);
  EXPECT_EQ(groupingError(1, 1, 1), std::nullopt);
  EXPECT_EQ(groupingError(6, 1, 3), std::nullopt);

  const auto contains = [](const std::optional<std::string>& error, const std::string& part) {
    return error && error->find(part) != std::string::npos;
  };
  EXPECT_TRUE(contains(groupingError(8, 3, 2), "stride must divide"));
  EXPECT_TRUE(contains(groupingError(8, 0, 2), "stride must be positive"));
  EXPECT_TRUE(contains(groupingError(8, -2, 2), "stride must be positive"));
  EXPECT_TRUE(contains(groupingError(8, 1, 0), "group_size must be positive"));
  EXPECT_TRUE(contains(groupingError(8, 1, 3), "group_size must divide"));
  EXPECT_TRUE(contains(groupingError(8, 2, 2), "stride * group_size"));
  EXPECT_TRUE(contains(groupingError(8, 2, 8), "stride * group_size"));
  EXPECT_TRUE(contains(groupingError(8, 3, 2), "(3, 2) of 8 replicas"));
  EXPECT_TRUE(contains(groupingError(0, 1, 1), "replica count must be positive"));
}

TEST(Grouping, MembersGroupsAndRanks) {
  const ReplicaGrouping strided(8, {2, 4});
  EXPECT_EQ(strided.numGroups(), 2);
  EXPECT_EQ(strided.groupSize(), 4);
  EXPECT_EQ(strided.members(0), (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(strided.members(1), (std::vector<int>{1, 3, 5, 7}));
  EXPECT_EQ(strided.groupOf(5), 1);
  EXPECT_EQ(strided.rankInGroup(5), 2);

  const ReplicaGrouping blocks(8, {1, 2});
  EXPECT_EQ(blocks.numGroups(), 4);
  EXPECT_EQ(blocks.members(3), (std::vector<int>{6, 7}));
  EXPECT_EQ(blocks.rankInGroup(7), 1);

  const ReplicaGrouping all(4, allReplicas(4));
  EXPECT_EQ(all.numGroups(), 1);
  EXPECT_EQ(all.members(0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(all.numReplicas(), 4);

  // Every valid grouping of 12 replicas partitions them into equal groups.
  for (int64_t stride = 1; stride <= 12; ++stride)
    for (int64_t size = 1; size <= 12; ++size) {
      if (groupingError(12, stride, size)) continue;
      const ReplicaGrouping g(12, {stride, size});
      EXPECT_EQ(g.numGroups() * size, 12) << stride << "," << size;
      for (int group = 0; group < g.numGroups(); ++group) {
        ASSERT_EQ(static_cast<int64_t>(g.members(group).size()), size);
        for (size_t k = 1; k < g.members(group).size(); ++k)
          EXPECT_EQ(g.members(group)[k] - g.members(group)[k - 1], stride);
      }
    }
}

}  // namespace
