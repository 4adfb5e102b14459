# x * x differentiates to one product g x added to itself (the two contributions are the
# same value), not two equal products; the values are those of 2 g x.
# RUN: %pir opt %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VAL
graph @f(%x: f32[3]) -> (f32[3]) {
  %y = mul %x, %x
  return %y
}
autodiff @f -> @f_grad
# CHECK-LABEL: graph @f_grad(
# CHECK-NEXT: %[[P:[0-9a-z.]+]] = mul %grad.y, %x : f32[3]
# CHECK-NEXT: %[[S:[0-9a-z.]+]] = add %[[P]], %[[P]] : f32[3]
# CHECK-NEXT: return %[[S]]
main {
  const %x : f32[3] = [1.5, -2, 0.25]
  const %up : f32[3] = [1, 0.5, -4]
  %y = call @f(%x) as fwd
  %dx = call @f_grad(%up) using fwd
}
run
print %dx
# VAL: %dx: f32[3] = [3, -2, -2]
