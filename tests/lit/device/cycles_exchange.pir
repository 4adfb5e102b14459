# Exchange phases, hand-computed (4 bytes per tile per cycle).
# RUN: %pir profile %s | FileCheck %s
ir {tiles_per_ipu = 4}
main {
  # %a lives on tile 0; the output of add is spread over tiles 0-3 (16 each):
  # tile 0 sends 48 elements (192 bytes), tiles 1-3 receive 64 bytes each.
  # exchange 192 / 4 = 48, sync 150, compute 68: 266.
  const %a : f32[64] = 1 {tile = 0}
  const %b : f32[64] = 2
  %c = add %a, %b
  # sum to a scalar on tile 0: it needs all 64 elements and holds 16; it
  # receives 192 bytes (48 cycles); work 64 elements: 50 + ceil(64/6) * 6 = 116.
  %s = sum %c
  # matmul [4,8] x [8,4] -> [4,4]: output tile k holds row k (4 elements); it
  # needs row k of A (on tile k already) and all of B (32 elements, 128 bytes;
  # it holds 32 bytes of B): 96 bytes received -> 24 cycles. Compute: 4 outputs
  # x 8 MACs = 32 / 16 MACs per cycle = 2, + 50.
  const %A : f32[4,8] = 1
  const %B : f32[8,4] = 1
  %m = matmul %A, %B
}
# CHECK: cycles per run: 806
# CHECK-NEXT: compute{{ +}}236
# CHECK-NEXT: exchange{{ +}}120
# CHECK-NEXT: sync{{ +}}450 {{.*}}(3 syncs)
# CHECK:       314      1       116        48      150         0  %s = sum
# CHECK-NEXT:  266      1        68        48      150         0  %c = add
# CHECK-NEXT:  226      1        52        24      150         0  %m = matmul
