# What autodiff writes (language.md §9), as `pir opt` prints it: the gradient graph
# takes %grad.y, then its activations named like the forward values, and carries
# grad_of/activations; the intermediate %t becomes a new output of @f after %y
# (PopXL's SafeAddFwdOutputs), and a call of @f made before the directive gets the
# new result too. The printed program reads back to the same text.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: FileCheck %s < %t1
graph @f(%x: f32[3], %w: f32[3]) -> (f32[3]) {
  %a = mul %x, %w
  %t = tanh %a
  %y = mul %t, %w
  return %y
}
main {
  const %x : f32[3] = [1, 2, 3]
  const %w : f32[3] = [0.5, -1, 2]
  %y = call @f(%x, %w)
}
autodiff @f -> @f_grad
# CHECK-LABEL: graph @f(%x: f32[3], %w: f32[3]) -> (f32[3], f32[3]) {
# CHECK:         return %y, %t
# CHECK-LABEL: graph @f_grad(%grad.y: f32[3], %w: f32[3], %t: f32[3], %x: f32[3]) -> (f32[3], f32[3]) attributes {grad_of = @f, activations = [%w, %t, %x]} {
# CHECK:         %[[DW:[0-9]+]] = add
# CHECK-NEXT:    return %{{[0-9]+}}, %[[DW]]
# CHECK-LABEL: main {
# CHECK:         %y, %{{[0-9]+}} = call @f(%x, %w) : f32[3], f32[3]
