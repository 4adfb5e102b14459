# Differentiability can depend on attributes: replicated_all_reduce has a gradient for
# op = add and mean only (ops.md).
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @f(%x: f32[3]) -> (f32[3]) {
  %y = replicated_all_reduce %x {op = max}
  return %y
}
autodiff @f -> @f_grad
# CHECK: error_no_gradient_attr.pir:5:8: error: autodiff: replicated_all_reduce {op = max} has no gradient, and it is on the path from %x to %y
