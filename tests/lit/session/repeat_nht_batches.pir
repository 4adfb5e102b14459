# A repeat over num_host_transfers batches: each iteration loads the next slot.
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 3}
h2d $x : f32[2]
d2h $y : f32[2]
graph @step(%acc: f32[2]) -> (f32[2]) {
  %x = host_load $x
  %s = add %acc, %x
  host_store $y, %s
  return %s
}
main {
  %z = init {shape = [2], dtype = f32}
  %r = repeat @step(%z) {count = 3}
}
feed $x = [[1, 2], [3, 4], [5, 6]]
run
print $y, %r
# CHECK: $y: f32[3,2] = {{\[\[}}1, 2], [4, 6], [9, 12]]
# CHECK-NEXT: %r: f32[2] = [9, 12]
# Cursors reset at every run: the same feed gives the same result.
run
print %r
# CHECK-NEXT: %r: f32[2] = [9, 12]
