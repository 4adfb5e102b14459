# Placement attributes are kept on var, const and ops; var attributes other
# than the default retrieval are printed.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
ir {replication = 4, ipus = 2, io_tiles = 32}
remote_buffer $rb : f32[2] {entries = 2}
main {
  # Two groups: the data has a row per group.
  var %w : f32[2] = [[1, 2], [3, 4]] {tile = 5, retrieval = one_per_group, replica_grouping = (1, 2)}
  var %a : f32[2] = zeros {retrieval = all_replicas, replica_grouping = (2, 2)}
  var %r : f32[2] = ones {remote = $rb, offset = 1}
  const %c : f32[2] = 3 {ipu = 1, tile_set = io}
  %m = ipu_copy %w {ipu = 1}
}
# CHECK:      var %w : f32[2] = {{\[\[}}1, 2], [3, 4]] {replica_grouping = (1, 2), tile = 5}
# CHECK-NEXT: var %a : f32[2] = zeros {replica_grouping = (2, 2), retrieval = all_replicas}
# CHECK-NEXT: var %r : f32[2] = ones {remote = $rb, offset = 1}
# CHECK-NEXT: const %c : f32[2] = 3 {ipu = 1, tile_set = io}
# CHECK-NEXT: %m = ipu_copy %w {ipu = 1} : f32[2]
