# The graph-compile out-of-memory check (runtime.md §7): 1240 bytes of
# variables on tile 0 of a 4-tile IPU with 1000 bytes per tile. Nothing runs:
# no output, exit status 1, the error names the tile, the bytes needed and
# available, and the largest tensors live there.
# RUN: not %pir run %s > %t.out 2> %t.err
# RUN: FileCheck %s < %t.err
# RUN: count 0 < %t.out
ir {tiles_per_ipu = 4, tile_memory = 1000}
d2h $y : f32[]
main {
  var %w : f32[300] = 1 {tile = 0}
  var %v : f32[10] = 2 {tile = 0}
  %s = sum %w
  host_store $y, %s
}
run
print $y
# Tile 0: %w 1200 + %v 40 bytes, $y's landing area 4, %s 4, and the code of
# two ops (sum and host_store: 512 bytes of codelet + 32 bytes each).
# CHECK: tile_oom.pir:13:8: error: out of memory on tile 0: 2336 bytes needed at its peak, 1000 available (tile_memory); live there: %w f32[300] (1200 bytes), code of 2 op(s) (1088 bytes), %v f32[10] (40 bytes), $y landing area f32[] (4 bytes), %s f32[] (4 bytes)
# CHECK-NEXT:   %s = sum %w
# CHECK-NEXT:        ^
# CHECK-NEXT: tile_oom.pir:11:7: note: %w holds 1200 bytes on tile 0
# CHECK-NEXT: tile_oom.pir:12:7: note: %v holds 40 bytes on tile 0
