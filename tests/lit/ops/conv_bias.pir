# RUN: %pir run %s | FileCheck %s
# conv with its bias operand (ONNX Conv's B, one value per output channel) and
# the bias's gradient (g summed over all but the channel axis); PyTorch's
# conv2d gives the same values.
graph @f(%x: f32[1,2,3,3], %w: f32[2,2,2,2], %b: f32[2]) -> (f32[]) {
  const %m : f32[1,2,2,2] = [[[[1, 2], [3, 4]], [[-1, 0.5], [2, -3]]]]
  %y = conv %x, %w, %b
  %ym = mul %y, %m
  %s = sum %ym
  return %s
}
autodiff @f -> @df {grads_required = [%x, %w, %b]}
main {
  const %x : f32[1,2,3,3] = [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[0, 1, 0], [1, 0, 1], [2, 2, 2]]]]
  const %w : f32[2,2,2,2] = [[[[1, 0], [0, 1]], [[0.5, 0.5], [1, -1]]], [[[2, 1], [0, 0]], [[1, 1], [1, 1]]]]
  const %b : f32[2] = [10, -20]
  %y = conv %x, %w, %b
  %s = call @f(%x, %w, %b) as fwd
  %dx, %dw, %db = call @df(1.0) using fwd
}
run
print %y, %s, %db
# CHECK: %y: f32[1,2,2,2] = {{\[\[\[\[}}17.5, 17.5], [22.5, 24.5]], {{\[\[}}-14, -11], [-2, 1]]]]
# CHECK-NEXT: %s: f32[] = 219.5
# CHECK-NEXT: %db: f32[2] = [10, -1.5]
