# The autodiff directive is not printed; the gradient graph it created is, with
# its `attributes {grad_of = ..., activations = [...]}`, and the program reads
# back to the same IR. `as`/`using` labels print as explicit arguments.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
graph @fwd(%x: f32[2], %W: f32[2]) -> (f32[2]) {
  %y = mul %x, %W
  return %y
}
autodiff @fwd -> @fwd_grad {grads_required = [%W]}
main {
  var %W : f32[2] = [1, 2]
  const %x : f32[2] = [3, 4]
  %y = call @fwd(%x, %W) as fwd0
  %dW = call @fwd_grad(1.0) using fwd0
}
# CHECK-NOT: autodiff
# CHECK:     graph @fwd(%x: f32[2], %W: f32[2]) -> (f32[2]{{.*}}) {
# CHECK:     graph @fwd_grad(%grad.y: f32[2]{{.*}}) -> (f32[2]) attributes {grad_of = @fwd, activations = [{{.*}}]} {
# CHECK:     main {
# CHECK:       %y = call @fwd(%x, %W) : f32[2]{{.*}}
# CHECK-NEXT:  %dW = call @fwd_grad(1, %{{.*}}) : f32[2]
# CHECK-NOT: as fwd0
# CHECK-NOT: using
