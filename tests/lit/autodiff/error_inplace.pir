# Graphs containing in-place ops cannot be differentiated (PopXL): the error names the op.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @f(%x: f32[3]) -> (f32[3]) {
  %a = mul %x, %x
  relu_ %a
  return %a
}
autodiff @f -> @f_grad
# CHECK: error_inplace.pir:5:3: error: autodiff: @f contains the in-place op relu_; graphs with in-place ops cannot be differentiated
# CHECK: error_inplace.pir:8:1: note: differentiating @f here
