# With replication = 2 every replica reads its own slice of the stream buffer
# and holds its own variables.
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --threads=1 %s | FileCheck %s
ir {replication = 2}
h2d $x : f32[2]
d2h $y : f32[2]
main {
  var %w : f32[2] = [1, 1]
  var %g : f32[2] = [[0, 0], [10, 10]] {replica_grouping = (1, 1)}
  %x = host_load $x
  %y = mul %x, %w
  accumulate_ %w, %x
  accumulate_ %g, %x
  host_store $y, %y
}
feed $x = [[1, 2], [3, 4]]
run
print $y, %w, %g
# CHECK: $y: f32[2,2] = {{\[\[}}1, 2], [3, 4]]
# CHECK-NEXT: %w: f32[2] = [2, 3]
# CHECK-NEXT: %g: f32[2,2] = {{\[\[}}1, 2], [13, 14]]
