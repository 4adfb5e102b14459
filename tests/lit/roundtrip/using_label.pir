# `as LABEL` / `using LABEL` with a hand-written gradient graph: `using` fills
# the activation inputs from the call site (forward inputs from its arguments,
# forward outputs from its results), after the explicit arguments. The canonical
# form prints every argument explicitly and no labels.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
graph @fwd(%x: f32[2], %W: f32[2]) -> (f32[2]) {
  %y = mul %x, %W
  return %y
}
graph @fwd_grad(%grad.y: f32[2], %x: f32[2]) -> (f32[2]) attributes {grad_of = @fwd, activations = [%x]} {
  %dW = mul %grad.y, %x
  return %dW
}
main {
  var %W : f32[2] = [1, 2]
  const %x : f32[2] = [3, 4]
  %y = call @fwd(%x, %W) as fwd0
  %dW = call @fwd_grad(1.0) using fwd0
}
run
print %y, %dW
# CHECK:     main {
# CHECK:       %y = call @fwd(%x, %W) : f32[2]
# CHECK-NEXT:  %dW = call @fwd_grad(1, %x) : f32[2]
# CHECK-NOT: fwd0
# VALUES: %y: f32[2] = [3, 8]
# VALUES-NEXT: %dW: f32[2] = [3, 4]
