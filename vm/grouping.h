// Replica groupings (runtime.md §5, PopXL ir.replica_grouping).
//
// (stride, group_size) partitions R replicas: for each group id in turn, take the
// lowest unassigned replica o and assign o, o + stride, ..., o + (group_size-1)*stride.
// R = 8: (1, 2) -> 0 0 1 1 2 2 3 3; (2, 4) -> 0 1 0 1 0 1 0 1; (4, 2) -> 0 1 2 3 0 1 2 3.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pir::vm {

struct Grouping {
  int64_t stride = 1;
  int64_t groupSize = 0;  // resolved: > 0
  bool operator==(const Grouping&) const = default;
};

// group_size when omitted: R / stride.
int64_t defaultGroupSize(int64_t replicas, int64_t stride);

// nullopt if (stride, groupSize) is a valid grouping of `replicas`, else the reason
// (a sentence fragment for a diagnostic). Valid: R > 0, stride > 0, R % stride == 0,
// groupSize > 0, and (stride == 1 and R % groupSize == 0, or stride * groupSize == R).
std::optional<std::string> groupingError(int64_t replicas, int64_t stride, int64_t groupSize);

// The grouping of all replicas in one group: (1, R).
inline Grouping allReplicas(int64_t replicas) { return {1, replicas}; }

// Group id of each replica. Precondition: the grouping is valid.
std::vector<int> assignment(int64_t replicas, const Grouping& g);

// A resolved grouping with its lookups precomputed.
class ReplicaGrouping {
 public:
  // Precondition: groupingError(replicas, g.stride, g.groupSize) is nullopt.
  ReplicaGrouping(int64_t replicas, Grouping g);

  const Grouping& grouping() const { return grouping_; }
  int64_t numReplicas() const { return static_cast<int64_t>(groupOf_.size()); }
  int64_t numGroups() const { return static_cast<int64_t>(members_.size()); }
  int64_t groupSize() const { return grouping_.groupSize; }
  int groupOf(int replica) const { return groupOf_[static_cast<size_t>(replica)]; }
  // Position of `replica` among its group's members (0-based, replica order).
  int rankInGroup(int replica) const { return rankInGroup_[static_cast<size_t>(replica)]; }
  // Members of a group in increasing replica order.
  const std::vector<int>& members(int groupId) const { return members_[static_cast<size_t>(groupId)]; }
  const std::vector<int>& assignment() const { return groupOf_; }

 private:
  Grouping grouping_;
  std::vector<int> groupOf_, rankInGroup_;
  std::vector<std::vector<int>> members_;
};

}  // namespace pir::vm
