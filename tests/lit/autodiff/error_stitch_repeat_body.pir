# A forward graph that needs new outputs for its activations cannot also be a repeat
# body (its outputs are carried into its inputs): the error points at the repeat.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @f(%x: f32[3]) -> (f32[3]) {
  %a = tanh %x
  %y = mul %a, %a
  return %y
}
main {
  const %x : f32[3] = [1, 2, 3]
  %r = repeat @f(%x) {count = 2}
}
autodiff @f -> @f_grad
# CHECK: error_stitch_repeat_body.pir:11:8: error: autodiff: @f is used by repeat here; its activations cannot be added to its outputs (only `call` sites can take them)
# CHECK: error_stitch_repeat_body.pir:13:1: note: differentiating @f here
