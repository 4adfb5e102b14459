# RUN: %pir run %s | FileCheck %s
# conv_transpose with its bias operand (ONNX ConvTranspose's B, one value per
# output channel, C_out = w.shape[1] * groups), with groups, and the bias's
# gradient (g summed over all but the channel axis). Expected values: PyTorch's
# conv_transpose2d with the bias, worked out when this test was written.
graph @f(%x: f32[1,2,2,2], %w: f32[2,3,2,2], %b: f32[3]) -> (f32[]) {
  const %m : f32[1,3,4,4] = [[[[-2, -1, 0, 1], [2, -2, -1, 0], [1, 2, -2, -1], [0, 1, 2, -2]], [[-1, 0, 1, 2], [-2, -1, 0, 1], [2, -2, -1, 0], [1, 2, -2, -1]], [[0, 1, 2, -2], [-1, 0, 1, 2], [-2, -1, 0, 1], [2, -2, -1, 0]]]]
  %y = conv_transpose %x, %w, %b {stride = [2, 2]}
  %ym = mul %y, %m
  %s = sum %ym
  return %s
}
autodiff @f -> @df {grads_required = [%b]}
main {
  const %x : f32[1,2,2,2] = [[[[1, 2], [3, 4]], [[0, -1], [2, 1]]]]
  const %w : f32[2,3,2,2] = [[[[1, 0], [0.5, 1]], [[2, -1], [0, 1]], [[1, 1], [1, 1]]], [[[0, 1], [1, 0]], [[1, 1], [-1, 0.5]], [[0.25, 0], [0, 2]]]]
  const %b : f32[3] = [10, -20, 0.5]
  const %wg : f32[2,1,2,2] = [[[[1, 0], [0.5, 1]]], [[[0, 1], [1, 0]]]]
  const %bg : f32[2] = [1, -1]
  %y = conv_transpose %x, %w, %b {stride = [2, 2]}
  %yg = conv_transpose %x, %wg, %bg {groups = 2}
  %s = call @f(%x, %w, %b) as fwd
  %db = call @df(1.0) using fwd
}
run
print %y, %yg, %s, %db
# CHECK: %y: f32[1,3,4,4] = {{\[\[\[\[}}11, 10, 12, 9], [10.5, 11, 10, 12], [13, 12, 14, 11], [13.5, 13, 13, 14]], {{\[\[}}-18, -21, -17, -23], [-20, -19, -19, -18.5], [-12, -21, -11, -23], [-22, -16, -21, -15.5]], {{\[\[}}1.5, 1.5, 2.25, 2.5], [1.5, 1.5, 2.5, 0.5], [4, 3.5, 4.75, 4.5], [3.5, 7.5, 4.5, 6.5]]]]
# CHECK-NEXT: %yg: f32[1,2,3,3] = {{\[\[\[\[}}2, 3, 1], [4.5, 7, 3], [2.5, 6, 5]], {{\[\[}}-1, -1, -2], [-1, 0, 0], [1, 0, -1]]]]
# CHECK-NEXT: %s: f32[] = -13.5
# CHECK-NEXT: %db: f32[3] = [-2, -1, 0]
