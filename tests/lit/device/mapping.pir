# Linear tile mapping (Poplar's mapTensorLinearly, 16-byte grain) for several
# shapes and dtypes on 4 compute tiles, and the placement overrides.
#   grain g = ceil(16 / element bytes); chunk = ceil(ceil(N / g) / tiles) * g
# RUN: %pir profile --mapping %s | FileCheck %s
# RUN: %pir profile %s --json=%t.json > /dev/null && %python -c "import json,sys; d=json.load(open(sys.argv[1])); print([(m['tensor'], m['first_tile'], m['tiles'], m['elements_per_tile'], m['last_tile_elements']) for m in d['mapping'] if m['tensor'].startswith('%')])" %t.json | FileCheck %s --check-prefix=JSON
ir {tiles_per_ipu = 6, io_tiles = 2}
main {
  # f32: g = 4. 64 elements = 16 grains, 4 per tile: tiles 0-3, 16 each.
  const %a : f32[64] = 1
  # 10 elements = 3 grains, one per tile: tiles 0-2, the last holds 2.
  const %b : f32[10] = 1
  # f16: g = 8. 100 elements = 13 grains, 4 per tile (32 elements): tiles 0-3, last 4.
  const %c : f16[100] = 1
  # u8: g = 16. 5 elements: one grain, tile 0.
  const %d : u8[5] = 1
  # f64: g = 2. 9 elements = 5 grains, 2 per tile (4 elements): tiles 0-2, last 1.
  const %e : f64[9] = 1
  # 2-D: the elements in row-major order. 3x7 f32 = 21 = 6 grains, 2 per tile (8).
  const %f : f32[3,7] = 1
  # tiles = [1, 3]: over tiles 1 and 2; tile = 3: all on tile 3.
  const %g : f32[12] = 1 {tiles = [1, 3]}
  const %h : f32[12] = 1 {tile = 3}
  # The io tile set: tiles 4-5.
  const %i : f32[12] = 1 {tile_set = io}
  # A large tensor: 1000 f32 = 250 grains, 63 per tile (252 elements).
  const %j : f32[1000] = 1
}
# CHECK: tile mapping:
# CHECK-NEXT: tensor                  type                ipu     set         tiles  elements/tile    last
# CHECK-NEXT: %a                      f32[64]               0 compute          0..3             16      16
# CHECK-NEXT: %b                      f32[10]               0 compute          0..2              4       2
# CHECK-NEXT: %c                      f16[100]              0 compute          0..3             32       4
# CHECK-NEXT: %d                      u8[5]                 0 compute          0..0              5       5
# CHECK-NEXT: %e                      f64[9]                0 compute          0..2              4       1
# CHECK-NEXT: %f                      f32[3,7]              0 compute          0..2              8       5
# CHECK-NEXT: %g                      f32[12]               0 compute          1..2              8       4
# CHECK-NEXT: %h                      f32[12]               0 compute          3..3             12      12
# CHECK-NEXT: %i                      f32[12]               0      io          4..5              8       4
# CHECK-NEXT: %j                      f32[1000]             0 compute          0..3            252     244
# JSON: [('%a', 0, 4, 16, 16), ('%b', 0, 3, 4, 2), ('%c', 0, 4, 32, 4), ('%d', 0, 1, 5, 5), ('%e', 0, 3, 4, 1), ('%f', 0, 3, 8, 5), ('%g', 1, 2, 8, 4), ('%h', 3, 1, 12, 12), ('%i', 4, 2, 8, 4), ('%j', 0, 4, 252, 244)]
