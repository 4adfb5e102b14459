# A slice of unit steps differentiates to one zero `pad` of the gradient (one copy into
# zeros), not a concat and a gather per sliced axis; a strided axis keeps its gather.
# RUN: %pir opt %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VAL
graph @f(%x: f32[3,4,5]) -> (f32[2,2,5]) {
  %y = slice %x {start = [1, 1], stop = [3, 3]}
  return %y
}
autodiff @f -> @f_grad
# CHECK-LABEL: graph @f_grad(
# CHECK-NOT: gather
# CHECK-NOT: concat
# CHECK: = pad %{{[0-9a-z.]+}} {pads = [1, 1, 0, 0, 1, 0]} : f32[3,4,5]
# CHECK-NOT: gather
# CHECK: return
graph @s(%x: f32[3,4]) -> (f32[3,2]) {
  %y = slice %x {start = [0, 0], stop = [3, 4], step = [1, 2]}
  return %y
}
autodiff @s -> @s_grad
# CHECK-LABEL: graph @s_grad(
# CHECK-NOT: pad
# CHECK: gather
# CHECK: return
main {
  const %x : f32[3,4,5] = 1
  const %up : f32[2,2,5] = 2
  %y = call @f(%x) as fwd
  %dx = call @f_grad(%up) using fwd
}
run
print %dx
# VAL: %dx: f32[3,4,5] = {{\[\[\[}}0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], {{\[\[}}0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [2, 2, 2, 2, 2], [0, 0, 0, 0, 0]], {{\[\[}}0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [2, 2, 2, 2, 2], [0, 0, 0, 0, 0]]]
