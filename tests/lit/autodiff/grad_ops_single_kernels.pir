# conv, max_pool, average_pool and layer_norm differentiate to one gradient op each
# (conv_grad_weight, conv_grad_input, max_pool_grad, average_pool_grad,
# layer_norm_grad) carrying the forward op's attributes, not to chains of generic ops.
# RUN: %pir opt %s | FileCheck %s
graph @f(%x: f32[2,3,6,6], %w: f32[4,3,3,3], %g: f32[6], %b: f32[6]) -> (f32[]) {
  %c = conv %x, %w {stride = [1, 1], padding = [1, 1, 1, 1]}
  %m = max_pool %c {kernel = [2, 2]}
  %a = average_pool %m {kernel = [2, 2], stride = [1, 1], padding = [1, 1, 0, 0]}
  %t = reshape %a {shape = [12, 6]}
  %n = layer_norm %t, %g, %b
  %l = sum %n
  return %l
}
autodiff @f -> @f_grad
# CHECK-LABEL: graph @f_grad(
# CHECK-NOT: gather
# CHECK: = layer_norm_grad %t, %g, %{{[0-9]+}} : f32[12,6], f32[6], f32[6]
# CHECK: = average_pool_grad %{{[0-9]+}} {shape = [2, 4, 3, 3], kernel = [2, 2], stride = [1, 1], padding = [1, 1, 0, 0]} : f32[2,4,3,3]
# CHECK: = max_pool_grad %c, %{{[0-9]+}} {kernel = [2, 2], stride = [2, 2], padding = [0, 0, 0, 0]} : f32[2,4,6,6]
# CHECK: = conv_grad_weight %x, %{{[0-9]+}} {shape = [4, 3, 3, 3], stride = [1, 1], padding = [1, 1, 1, 1], dilation = [1, 1]} : f32[4,3,3,3]
# CHECK: = conv_grad_input %{{[0-9]+}}, %w {shape = [2, 3, 6, 6], stride = [1, 1], padding = [1, 1, 1, 1], dilation = [1, 1]} : f32[2,3,6,6]
# CHECK-NOT: gather
# CHECK: return
