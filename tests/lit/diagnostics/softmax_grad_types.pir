# softmax_grad and log_softmax_grad take y and g of one float type and an axis of y.
# RUN: not %pir check %s 2>&1 | FileCheck %s
const %y : f32[2,3] = 1
const %g : f32[3,2] = 1
const %i : i32[2,3] = 1
%a = softmax_grad %y, %g
# CHECK: softmax_grad_types.pir:6:23: error: softmax_grad: the gradient f32[3,2] must have the type of y f32[2,3]
%b = log_softmax_grad %y, %y {axis = 2}
# CHECK: softmax_grad_types.pir:8:38: error: log_softmax_grad: axis 2 is out of range for f32[2,3] (rank 2)
%c = softmax_grad %i, %i
# CHECK: softmax_grad_types.pir:10:19: error: softmax_grad: {{.*}}
