# A tensor larger than the emulated device is rejected before any allocation.
# RUN: not %pir run %s 2>&1 | FileCheck %s
ir {tiles_per_ipu = 4, tile_memory = 1024}
main {
  %z = init {shape = [100000, 100000], dtype = f32}
}
run
# CHECK: tensor_too_large.pir:5:{{[0-9]+}}: error: {{.*}}%z{{.*}}
