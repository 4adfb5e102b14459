# The language.md example, run twice with different feeds.
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 1}
h2d $x : f32[2,3]
d2h $y : f32[2,2]
graph @linear(%x: f32[2,3], %W: f32[3,2], %b: f32[2]) -> (f32[2,2]) {
  %xw = matmul %x, %W
  %y = add %xw, %b
  return %y
}
main {
  var %W : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
  var %b : f32[2] = 0.5
  %x = host_load $x
  %y = call @linear(%x, %W, %b)
  host_store $y, %y
}
feed $x = [[1, 2, 3], [4, 5, 6]]
run
print $y
# CHECK: $y: f32[2,2] = {{\[\[}}4.5, 5.5], [10.5, 11.5]]
feed $x = [[0, 0, 0], [1, 0, -1]]
run
print $y, %b
# CHECK-NEXT: $y: f32[2,2] = {{\[\[}}0.5, 0.5], [0.5, -0.5]]
# CHECK-NEXT: %b: f32[2] = [0.5, 0.5]
