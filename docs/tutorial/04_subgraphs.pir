# Tutorial step 4: subgraphs, calls, by-value and by-reference inputs.
#
# RUN: %pir run %s | FileCheck %s
h2d $x : f32[2,3]
d2h $y : f32[2,2]

graph @linear(%x: f32[2,3], %W: f32[3,2], %b: f32[2]) -> (f32[2,2]) {
  %xw = matmul %x, %W
  %y = add %xw, %b
  return %y
}

graph @bump(%v: &f32[2]) -> () {
  add_ %v, 1
  return
}

main {
  var %W : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
  var %b : f32[2] = 0.5
  %x = host_load $x
  %y = call @linear(%x, %W, %b)
  host_store $y, %y
  call @bump(%b)
}

feed $x = [[1, 2, 3], [4, 5, 6]]
run
print $y, %b
# x @ W = [[1+3, 2+3], [4+6, 5+6]] = [[4, 5], [10, 11]]; + 0.5.
# CHECK: $y: f32[2,2] = {{\[\[}}4.5, 5.5], [10.5, 11.5]]
# @bump takes %b by reference: the variable itself grows by 1.
# CHECK-NEXT: %b: f32[2] = [1.5, 1.5]
run
print $y
# CHECK-NEXT: $y: f32[2,2] = {{\[\[}}5.5, 6.5], [11.5, 12.5]]
