// Replica groupings (runtime.md §5, PopXL ir.replica_grouping): the one grouping
// type of pir, read by the verifier, shape inference and the VM alike.
//
// (stride, group_size) partitions R replicas: for each group id in turn, take the
// lowest unassigned replica o and assign o, o + stride, ..., o + (group_size-1)*stride.
// R = 8: (1, 2) -> 0 0 1 1 2 2 3 3; (2, 4) -> 0 1 0 1 0 1 0 1; (4, 2) -> 0 1 2 3 0 1 2 3.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/attr.h"

namespace pir {

struct ReplicaGrouping {
  int64_t stride = 1;
  int64_t groupSize = 1;
  int64_t numGroups(int64_t replicas) const { return groupSize > 0 ? replicas / groupSize : 0; }
  bool operator==(const ReplicaGrouping&) const = default;
};

// All replicas in one group: (1, R).
inline ReplicaGrouping allReplicas(int64_t replicas) { return {1, replicas}; }
// group_size when omitted: R / stride.
int64_t defaultGroupSize(int64_t replicas, int64_t stride);
// Reads a `group` / `replica_grouping` attribute, `(stride[, group_size])` or a
// single stride; nullptr (or the word `none`) is all replicas. A malformed
// attribute gives a grouping that groupingError rejects.
ReplicaGrouping readGrouping(const Attr* a, int64_t replicas);
// nullopt when valid for R replicas, else the diagnostic: "replica grouping
// (3, 2) is not valid for 8 replicas: stride must divide the replica count".
// Valid: R > 0, stride > 0, R % stride == 0, group_size > 0, and (stride == 1
// and R % group_size == 0, or stride * group_size == R).
std::optional<std::string> groupingError(const ReplicaGrouping& g, int64_t replicas);

// Group id of each replica. Precondition: the grouping is valid.
std::vector<int> assignment(int64_t replicas, const ReplicaGrouping& g);

// A valid grouping's groups, with its lookups precomputed (the collectives and
// grouped variables of the VM use it).
class ReplicaGroups {
 public:
  // Precondition: groupingError(g, replicas) is nullopt.
  ReplicaGroups(int64_t replicas, ReplicaGrouping g);

  const ReplicaGrouping& grouping() const { return grouping_; }
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
  ReplicaGrouping grouping_;
  std::vector<int> groupOf_, rankInGroup_;
  std::vector<std::vector<int>> members_;
};

}  // namespace pir
