# Suggestions for the names an autodiff program uses: grads_required and
# grads_provided entries (a difference in case only counts), directive keys,
# call labels; an attribute key spelt out in full gets its short form, with the
# caret on the key, not on its value. Calling a gradient graph with only its
# gradients says what the other arguments are and how `using` binds them.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @fwd(%x: f32[2], %W: f32[2]) -> (f32[2]) {
  %y = mul %x, %W
  return %y
}
autodiff @fwd -> @bad_grad {grads_required = [%w]}
autodiff @fwd -> @bad_grad2 {grads_provided = [%Y]}
autodiff @fwd -> @bad_grad3 {grads_requried = [%W]}
autodiff @fwd -> @fwd_grad {grads_required = [%W]}
main {
  const %x : f32[2] = [1, 2]
  var %W : f32[2] = [1, 2]
  %y = call @fwd(%x, %W) as fwd0
  %dW = call @fwd_grad(1.0) using fwd
  %t = transpose %x {permutation = [0]}
  %g = call @fwd_grad(1.0)
}
# CHECK: did_you_mean_labels.pir:11:47: error: autodiff: grads_required: @fwd has no value %w; did you mean '%W'?
# CHECK: did_you_mean_labels.pir:12:48: error: autodiff: grads_provided: @fwd has no value %Y; did you mean '%y'?
# CHECK: did_you_mean_labels.pir:13:30: error: autodiff: unknown directive attribute 'grads_requried' (expected grads_provided, grads_required); did you mean 'grads_required'?
# CHECK: did_you_mean_labels.pir:19:35: error: call: unknown call label 'fwd'; did you mean 'fwd0'?
# CHECK: did_you_mean_labels.pir:20:22: error: transpose: unknown attribute 'permutation'; did you mean 'perm'?
# CHECK-NEXT: {{^}}    %t = transpose %x {permutation = [0]}
# CHECK-NEXT: {{^}}                       ^
# CHECK: did_you_mean_labels.pir:21:13: error: call: @fwd_grad takes 2 arguments, got 1: 1 gradient (%grad.y) + 1 activation (%x); add `using LABEL` to bind the activations from a call of @fwd written `... as LABEL`
