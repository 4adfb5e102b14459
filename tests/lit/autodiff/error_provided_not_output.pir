# grads_provided must name outputs of the forward graph (and an unknown name is reported too).
# RUN: not %pir check %s 2>&1 | FileCheck %s
# RUN: not %pir check %S/Inputs/provided_unknown.pir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
graph @f(%x: f32[3]) -> (f32[3]) {
  %h = exp %x
  %y = sin %h
  return %y
}
autodiff @f -> @f_grad {grads_provided = [%h]}
# CHECK: error_provided_not_output.pir:9:43: error: autodiff: grads_provided: %h is not an output of @f
# UNKNOWN: provided_unknown.pir:6:43: error: autodiff: grads_provided: @f has no value %z
