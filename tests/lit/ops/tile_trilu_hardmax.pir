# RUN: %pir run %s | FileCheck %s
# tile (ONNX Tile, np.tile), trilu (ONNX Trilu, np.triu / np.tril with k) and
# hardmax (ONNX Hardmax-13: the first largest; a NaN is the largest).
const %x : f32[2,2] = [[1, 2], [3, 4]]
%t = tile %x {repeats = [2, 3]}
const %m : f32[2,3,3] = [[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[10, 11, 12], [13, 14, 15], [16, 17, 18]]]
%u = trilu %m {k = 1}
%l = trilu %m {upper = false, k = -1}
const %h : f32[2,4] = [[3, 0, 3, 1], [2, nan, 5, 1]]
%hr = hardmax %h
%hc = hardmax %h {axis = 0}
run
print %t, %u, %l, %hr, %hc
# CHECK: %t: f32[4,6] = {{\[\[}}1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4], [1, 2, 1, 2, 1, 2], [3, 4, 3, 4, 3, 4]]
# CHECK-NEXT: %u: f32[2,3,3] = {{\[\[\[}}0, 2, 3], [0, 0, 6], [0, 0, 0]], {{\[\[}}0, 11, 12], [0, 0, 15], [0, 0, 0]]]
# CHECK-NEXT: %l: f32[2,3,3] = {{\[\[\[}}0, 0, 0], [4, 0, 0], [7, 8, 0]], {{\[\[}}0, 0, 0], [13, 0, 0], [16, 17, 0]]]
# CHECK-NEXT: %hr: f32[2,4] = {{\[\[}}1, 0, 0, 0], [0, 1, 0, 0]]
# CHECK-NEXT: %hc: f32[2,4] = {{\[\[}}1, 0, 0, 1], [0, 1, 1, 0]]
