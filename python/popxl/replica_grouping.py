"""Replica groupings (runtime.md §5; PopXL `ir.replica_grouping`)."""


class ReplicaGrouping:
    def __init__(self, replication_factor, stride=1, group_size=None):
        if stride < 1 or replication_factor % stride != 0:
            raise ValueError(f"replica grouping: stride {stride} does not divide the replication factor {replication_factor}")
        if group_size is None:
            group_size = replication_factor // stride
        if group_size < 1:
            raise ValueError("replica grouping: group_size must be positive")
        if not ((stride == 1 and replication_factor % group_size == 0) or stride * group_size == replication_factor):
            raise ValueError(f"replica grouping (stride {stride}, group_size {group_size}) does not partition "
                             f"{replication_factor} replicas")
        self._r = replication_factor
        self.stride = stride
        self.group_size = group_size

    @property
    def num_groups(self):
        return self._r // self.group_size

    @property
    def assignment(self):
        groups = [-1] * self._r
        g = 0
        for o in range(self._r):
            if groups[o] != -1:
                continue
            for k in range(self.group_size):
                groups[o + k * self.stride] = g
            g += 1
        return groups

    def transpose(self):
        return ReplicaGrouping(self._r, self.group_size if self.stride == 1 else 1, self.num_groups)

    def _text(self):
        return f"({self.stride}, {self.group_size})"

    def __repr__(self):
        return f"ReplicaGrouping(num_replicas={self._r}, stride={self.stride}, group_size={self.group_size})"
