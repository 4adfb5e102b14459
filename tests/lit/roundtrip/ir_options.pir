# `ir {...}` prints only the keys that differ from their defaults, in the order
# of runtime.md §1, whatever order they were written in.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
ir {seed = 7, tiles_per_ipu = 1472, num_host_transfers = 4, replication = 2, io_tiles = 32, tile_memory = 1000000, ipus = 2}
h2d $x : f32[2]
# CHECK: ir {replication = 2, num_host_transfers = 4, ipus = 2, tile_memory = 1000000, io_tiles = 32, seed = 7}
# CHECK-EMPTY:
# CHECK-NEXT: h2d $x : f32[2]
