# Three live f32[200000000] on the default device (1472 tiles of 624 KiB):
# each alone fits (135870 elements, 543480 bytes per tile... rounded to whole
# 16-byte grains: 135872 elements, 543488 bytes on tile 0), three do not. The
# check runs before anything is allocated.
# RUN: not %pir run %s 2>&1 | FileCheck %s
d2h $y : f32[]
main {
  %a = init {shape = [200000000], dtype = f32}
  %b = init {shape = [200000000], dtype = f32}
  %c = init {shape = [200000000], dtype = f32}
  %s = add %a, %b
  %t = add %s, %c
  %m = max %t
  host_store $y, %m
}
# At `%s = add` four of them are live (%a, %b, %c and %s).
# CHECK: big_tensors_oom.pir:11:8: error: out of memory on tile 0: {{[0-9]+}} bytes needed at its peak, 638976 available (tile_memory); 1472 tiles are over the limit; live there: %a f32[200000000] (543488 bytes), %b f32[200000000] (543488 bytes), %c f32[200000000] (543488 bytes), %s f32[200000000] (543488 bytes)
