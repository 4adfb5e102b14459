# Compute and sync phases, hand-computed (device/cost_model.h): on 4 tiles an
# f32[64] is 16 elements per tile (64 bytes), so operands and outputs share a
# mapping and nothing is exchanged.
#   add: overhead 50 + ceil(16 / 6 workers) * 6 cycles/element = 68
#   exp: 50 + 3 * 30 = 140
# one sync (150) per op: 2 syncs, 300 cycles; elapsed 68 + 140 + 300 = 508.
# RUN: %pir profile %s | FileCheck %s
ir {tiles_per_ipu = 4}
main {
  const %a : f32[64] = 1
  const %b : f32[64] = 2
  %c = add %a, %b
  %d = exp %c
}
# CHECK: cycles per run: 508 (0.382 us)
# CHECK-NEXT: compute{{ +}}208
# CHECK-NEXT: exchange{{ +}}0
# CHECK-NEXT: sync{{ +}}300 {{.*}}(2 syncs)
# CHECK-NEXT: host IO{{ +}}0
# CHECK: ops by cycles (2):
# CHECK:       290      1       140         0      150         0  %d = exp
# CHECK-NEXT:  218      1        68         0      150         0  %c = add
