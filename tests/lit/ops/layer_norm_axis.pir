# layer_norm with `axis` normalises over the dims from it (ONNX LayerNormalization),
# gamma and beta shaped as those dims. With epsilon 0 the values are exact; NumPy:
#   m = x.reshape(2, -1).mean(1); v = ((x - m)**2).mean(1); (x - m) / sqrt(v) * g + b
# Over the last dim alone (epsilon 12, still exact) each pair of the first row of %x
# is constant and normalises to beta. A written axis equal to the last dim gives
# the default's bits.
# RUN: %pir run %s | FileCheck %s
const %x : f32[2,2,2] = [[[1, 1], [3, 3]], [[0, 4], [4, 0]]]
const %g : f32[2,2] = [[1, 2], [3, 4]]
const %b : f32[2,2] = [[0, 0.5], [1, 1]]
const %g1 : f32[2] = [1, 2]
const %b1 : f32[2] = [0, 0.5]
%y = layer_norm %x, %g, %b {axis = 1, epsilon = 0}
%ym2 = layer_norm %x, %g, %b {axis = -2, epsilon = 0}
%last = layer_norm %x, %g1, %b1 {epsilon = 12}
const %r : f32[2,3] = [[0.3, -1.7, 2.9], [1.1, 0.25, -4]]
const %rg : f32[3] = [0.5, -1.25, 2]
const %rb : f32[3] = [0.1, 0.2, 0.3]
%d = layer_norm %r, %rg, %rb
%d1 = layer_norm %r, %rg, %rb {axis = 1}
run
print %y, %ym2, %last, %d, %d1
# CHECK: %y: f32[2,2,2] = {{\[\[\[-1, -1.5\], \[4, 5\]\], \[\[-1, 2.5\], \[4, -3\]\]\]}}
# CHECK: %ym2: f32[2,2,2] = {{\[\[\[-1, -1.5\], \[4, 5\]\], \[\[-1, 2.5\], \[4, -3\]\]\]}}
# CHECK: %last: f32[2,2,2] = {{\[\[\[0, 0.5\], \[0, 0.5\]\], \[\[-0.5, 1.5\], \[0.5, -0.5\]\]\]}}
# CHECK: %d: f32[2,3] = [[VALUES:.*]]
# CHECK: %d1: f32[2,3] = [[VALUES]]
