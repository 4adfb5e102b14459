# An in-place op in a called subgraph is found when the callee is differentiated.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @g(%x: f32[3]) -> (f32[3]) {
  %a = exp %x
  scaled_add_ %a, %x {b = 2}
  return %a
}
graph @f(%x: f32[3]) -> (f32[3]) {
  %y = call @g(%x)
  return %y
}
autodiff @f -> @f_grad
# CHECK: error_inplace_callee.pir:5:3: error: autodiff: @g contains the in-place op scaled_add_; graphs with in-place ops cannot be differentiated
