# linear.pir: one step of y = x @ W + b (the example at the top of language.md).
#
# RUN: %pir check %s
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
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
print $y        # $y: f32[2,2] = [[4.5, 5.5], [10.5, 11.5]]

# x @ W = [[1+3, 2+3], [4+6, 5+6]] = [[4, 5], [10, 11]]; + b (0.5 broadcast).
# VALUES: $y: f32[2,2] = {{\[\[}}4.5, 5.5], [10.5, 11.5]]

# `ir {num_host_transfers = 1}` is the default, so it is not printed.
# IR-NOT: ir {
# IR: h2d $x : f32[2,3]
# IR-NEXT: d2h $y : f32[2,2]
# IR-EMPTY:
# IR-NEXT: graph @linear(%x: f32[2,3], %W: f32[3,2], %b: f32[2]) -> (f32[2,2]) {
# IR-NEXT:   %xw = matmul %x, %W : f32[2,2]
# IR-NEXT:   %y = add %xw, %b : f32[2,2]
# IR-NEXT:   return %y
# IR-NEXT: }
# IR-EMPTY:
# IR-NEXT: main {
# IR-NEXT:   var %W : f32[3,2] = {{\[\[}}1, 0], [0, 1], [1, 1]]
# IR-NEXT:   var %b : f32[2] = 0.5
# IR-NEXT:   %x = host_load $x : f32[2,3]
# IR-NEXT:   %y = call @linear(%x, %W, %b) : f32[2,2]
# IR-NEXT:   host_store $y, %y
# IR-NEXT: }
# IR-NOT: {{.}}
