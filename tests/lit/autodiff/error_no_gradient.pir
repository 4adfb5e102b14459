# An op without a gradient (ops.md ✗) on the path from a required input to a provided
# output is an error naming the op, located at it, with a note at the directive.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @f(%x: f32[3], %w: f32[3]) -> (f32[3]) {
  %a = mul %x, %w
  %y = scaled_add %a, %w
  return %y
}
autodiff @f -> @f_grad {grads_required = [%x]}
# CHECK: error_no_gradient.pir:6:8: error: autodiff: scaled_add has no gradient, and it is on the path from %x to %y
# CHECK-NEXT: {{^}}    %y = scaled_add %a, %w
# CHECK-NEXT: {{^}}         ^{{$}}
# CHECK: error_no_gradient.pir:9:1: note: differentiating @f here
