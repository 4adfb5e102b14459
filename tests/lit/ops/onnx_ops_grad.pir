# RUN: %pir run %s | FileCheck %s
# Gradients of conv_transpose (a conv for x, conv_grad_weight with the roles
# swapped for w), einsum (einsums of g and the other operand; a letter summed in
# one operand broadcasts back), resize (resize_grad: g spread by the read
# weights) and lrn (lrn_grad). The values are PyTorch's (conv_transpose2d cropped,
# torch.einsum, bilinear interpolate without align_corners, local_response_norm),
# equal to f32 rounding.
graph @f(%x: f32[1,1,2,2], %w: f32[1,2,2,2], %a: f32[2,3], %b: f32[3,2], %m: f32[1,2,3,3]) -> (f32[]) {
  %y = conv_transpose %x, %w {stride = [2, 1], padding = [1, 0, 0, 0]}
  %ym = mul %y, %m
  %s1 = sum %ym
  %e = einsum %a, %b {equation = "ij,jk->ik"}
  %e2 = einsum %a, %b {equation = "ij,kl->il"}
  %q = mul %e, %e2
  %s2 = sum %q
  %r = resize %x {shape = [1, 1, 3, 5], mode = linear}
  %rr = mul %r, %r
  %s3 = sum %rr
  %l = lrn %y {size = 3, alpha = 0.5, bias = 2}
  %lm = mul %l, %m
  %s4 = sum %lm
  %t1 = add %s1, %s2
  %t2 = add %s3, %s4
  %t = add %t1, %t2
  return %t
}
autodiff @f -> @df {grads_required = [%x, %w, %a, %b]}
main {
  const %x : f32[1,1,2,2] = [[[[1, 2], [3, 4]]]]
  const %w : f32[1,2,2,2] = [[[[1, -1], [2, 0.5]], [[0.25, 1], [-2, 3]]]]
  const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  const %b : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
  const %m : f32[1,2,3,3] = [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[-1, 0, 1], [2, -2, 0.5], [1, 1, -3]]]]
  %t = call @f(%x, %w, %a, %b, %m) as fwd
  %dx, %dw, %da, %db = call @df(1.0) using fwd
}
run
print %t, %dx, %dw, %da, %db
# CHECK: %t: f32[] = 967.55493
# CHECK-NEXT: %dx: f32[1,1,2,2] = {{\[\[\[\[}}17.299751, 24.457367], [35.691277, 35.852684]]]]
# CHECK-NEXT: %dw: f32[1,2,2,2] = {{\[\[\[\[}}39.685097, 46.437187], [58.316864, 71.42583]], {{\[\[}}-2.2033472, -2.127792], [8.019799, -7.5324244]]]]
# CHECK-NEXT: %da: f32[2,3] = {{\[\[}}30, 30, 42], [72, 72, 102]]
# CHECK-NEXT: %db: f32[3,2] = {{\[\[}}306, 327], [348, 369], [390, 411]]
