#include "vm/grouping.h"

namespace pir::vm {

int64_t defaultGroupSize(int64_t replicas, int64_t stride) {
  return stride > 0 ? replicas / stride : 0;
}

std::optional<std::string> groupingError(int64_t replicas, int64_t stride, int64_t groupSize) {
  // Built with += (GCC 12 warns falsely about `"(" + std::to_string(...)`).
  std::string pair = "(";
  pair += std::to_string(stride);
  pair += ", ";
  pair += std::to_string(groupSize);
  pair += ')';
  const std::string of = " of " + std::to_string(replicas) + " replicas";
  if (replicas <= 0) return "the replica count must be positive, not " + std::to_string(replicas);
  if (stride <= 0) return "invalid replica grouping " + pair + of + ": stride must be positive";
  if (replicas % stride != 0)
    return "invalid replica grouping " + pair + of + ": stride must divide the replica count";
  if (groupSize <= 0) return "invalid replica grouping " + pair + of + ": group_size must be positive";
  if (stride == 1) {
    if (replicas % groupSize != 0)
      return "invalid replica grouping " + pair + of + ": group_size must divide the replica count";
    return std::nullopt;
  }
  if (stride * groupSize != replicas)
    return "invalid replica grouping " + pair + of + ": with stride > 1, stride * group_size must equal the replica count";
  return std::nullopt;
}

std::vector<int> assignment(int64_t replicas, const Grouping& g) {
  std::vector<int> groupOf(static_cast<size_t>(replicas), -1);
  int groupId = 0;
  // Lowest unassigned replica starts the next group (runtime.md §5).
  for (int64_t origin = 0; origin < replicas; ++origin) {
    if (groupOf[static_cast<size_t>(origin)] != -1) continue;
    for (int64_t k = 0; k < g.groupSize; ++k) {
      const int64_t replica = origin + k * g.stride;
      if (replica < replicas) groupOf[static_cast<size_t>(replica)] = groupId;
    }
    ++groupId;
  }
  return groupOf;
}

ReplicaGrouping::ReplicaGrouping(int64_t replicas, Grouping g)
    : grouping_(g), groupOf_(vm::assignment(replicas, g)), rankInGroup_(groupOf_.size(), 0) {
  for (size_t replica = 0; replica < groupOf_.size(); ++replica) {
    const size_t group = static_cast<size_t>(groupOf_[replica]);
    if (members_.size() <= group) members_.resize(group + 1);
    rankInGroup_[replica] = static_cast<int>(members_[group].size());
    members_[group].push_back(static_cast<int>(replica));
  }
}

}  // namespace pir::vm
