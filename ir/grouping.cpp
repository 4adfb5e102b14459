#include "ir/grouping.h"

#include "ir/checked_math.h"

namespace pir {

int64_t defaultGroupSize(int64_t replicas, int64_t stride) { return stride > 0 ? replicas / stride : 0; }

ReplicaGrouping readGrouping(const Attr* a, int64_t replicas) {
  ReplicaGrouping g = allReplicas(replicas);
  if (!a || a->isWord("none")) return g;
  std::vector<int64_t> v;
  if (a->kind == Attr::Kind::Int) v.push_back(a->i);
  for (const Attr& item : a->items) {
    if (item.kind != Attr::Kind::Int) return {0, 0};  // rejected by groupingError
    v.push_back(item.i);
  }
  if (v.empty() || v.size() > 2) return {0, 0};
  g.stride = v[0];
  g.groupSize = v.size() > 1 ? v[1] : defaultGroupSize(replicas, v[0]);
  return g;
}

std::optional<std::string> groupingError(const ReplicaGrouping& g, int64_t replicas) {
  // Built with += (GCC 12 warns falsely about `"(" + std::to_string(...)`).
  std::string text = "replica grouping (";
  text += std::to_string(g.stride);
  text += ", ";
  text += std::to_string(g.groupSize);
  text += ") is not valid for " + std::to_string(replicas) + " replica" + (replicas == 1 ? "" : "s") + ": ";
  if (replicas <= 0) return text + "the replica count must be positive";
  if (g.stride <= 0) return text + "stride must be positive";
  if (replicas % g.stride != 0) return text + "stride must divide the replica count";
  if (g.groupSize <= 0) return text + "group_size must be positive";
  if (g.stride == 1) {
    if (replicas % g.groupSize != 0) return text + "group_size must divide the replica count";
    return std::nullopt;
  }
  if (checkedMul(g.stride, g.groupSize) != std::optional<int64_t>(replicas))
    return text + "with stride > 1, stride * group_size must equal the replica count";
  return std::nullopt;
}

std::vector<int> assignment(int64_t replicas, const ReplicaGrouping& g) {
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

ReplicaGroups::ReplicaGroups(int64_t replicas, ReplicaGrouping g)
    : grouping_(g), groupOf_(pir::assignment(replicas, g)), rankInGroup_(groupOf_.size(), 0) {
  for (size_t replica = 0; replica < groupOf_.size(); ++replica) {
    const size_t group = static_cast<size_t>(groupOf_[replica]);
    if (members_.size() <= group) members_.resize(group + 1);
    rankInGroup_[replica] = static_cast<int>(members_[group].size());
    members_[group].push_back(static_cast<int>(replica));
  }
}

}  // namespace pir
