# A linear layer as a subgraph called twice with different weights (PopXL
# `ir.create_graph(Linear(), x)` then `ops.call(graph, x, inputs_dict=...)`):
# the variables live in main and are passed in; each call site binds its own.
#
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES

h2d $x : f32[2,2]
d2h $y : f32[2,2]

graph @linear(%x: f32[2,2], %W: f32[2,2], %b: f32[2]) -> (f32[2,2]) {
  %xw = matmul %x, %W
  %y = add %xw, %b
  return %y
}

main {
  var %W0 : f32[2,2] = [[1, 2], [3, 4]]
  var %b0 : f32[2] = [0.5, -1]
  var %W1 : f32[2,2] = [[0, 1], [1, 0]]   # swaps the two columns
  var %b1 : f32[2] = 1
  %x = host_load $x
  %h = call @linear(%x, %W0, %b0)
  %y = call @linear(%h, %W1, %b1)
  host_store $y, %y
}

feed $x = [[1, 0], [0, 1]]
run
print $y, %h
# x is the identity: h = W0 + b0 = [[1.5, 1], [3.5, 3]];
# y = h with its columns swapped, + 1 = [[2, 2.5], [4, 4.5]].
# VALUES: $y: f32[2,2] = {{\[\[}}2, 2.5], [4, 4.5]]
# VALUES-NEXT: %h: f32[2,2] = {{\[\[}}1.5, 1], [3.5, 3]]

feed $x = [[2, 0], [1, -1]]
run
print $y
# h = x @ W0 + b0 = [[2, 4], [1-3, 2-4]] + b0 = [[2.5, 3], [-1.5, -3]];
# y = [[3, 2.5], [-3, -1.5]] + 1 = [[4, 3.5], [-2, -0.5]].
# VALUES-NEXT: $y: f32[2,2] = {{\[\[}}4, 3.5], [-2, -0.5]]

# IR: graph @linear(%x: f32[2,2], %W: f32[2,2], %b: f32[2]) -> (f32[2,2]) {
# IR: main {
# IR-NEXT:   var %W0 : f32[2,2] = {{\[\[}}1, 2], [3, 4]]
# IR-NEXT:   var %b0 : f32[2] = [0.5, -1]
# IR-NEXT:   var %W1 : f32[2,2] = {{\[\[}}0, 1], [1, 0]]
# IR-NEXT:   var %b1 : f32[2] = 1
# IR-NEXT:   %x = host_load $x : f32[2,2]
# IR-NEXT:   %h = call @linear(%x, %W0, %b0) : f32[2,2]
# IR-NEXT:   %y = call @linear(%h, %W1, %b1) : f32[2,2]
# IR-NEXT:   host_store $y, %y
# IR-NEXT: }
