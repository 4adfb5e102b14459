# grads_required must name inputs of the forward graph.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @f(%x: f32[3]) -> (f32[3]) {
  %h = exp %x
  %y = sin %h
  return %y
}
autodiff @f -> @f_grad {grads_required = [%h]}
# CHECK: error_required_not_input.pir:8:43: error: autodiff: grads_required: %h is not an input of @f
# CHECK-NEXT: {{^}}  autodiff @f -> @f_grad {grads_required = [%h]}
# CHECK-NEXT: {{^}}                                            ^{{$}}
# CHECK-NOT: note
