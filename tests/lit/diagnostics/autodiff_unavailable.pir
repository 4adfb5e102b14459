# The autodiff directive parses and is kept, but its transform is not in this
# build: check reports it at the directive.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @fwd(%x: f32[2], %W: f32[2]) -> (f32[2]) {
  %y = mul %x, %W
  return %y
}
autodiff @fwd -> @fwd_grad {grads_required = [%W]}
# CHECK: autodiff_unavailable.pir:8:1: error: autodiff is not available in this build
