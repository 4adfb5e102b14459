# RUN: %pir run %s | FileCheck %s
# range (ONNX Range), resize (ONNX Resize-13: nearest round_prefer_floor and
# linear over half_pixel coordinates, align_corners, asymmetric with floor),
# lrn (ONNX LRN: x / (bias + alpha/size * window sum of x^2)^beta).
%r = range {start = 1, limit = 2, delta = 0.25}
%ri = range {start = 10, limit = 4, delta = -3, dtype = i32}
%empty = range {start = 3, limit = 1}
const %im : f32[1,1,2,2] = [[[[1, 2], [3, 4]]]]
%up = resize %im {shape = [1, 1, 4, 4]}
%ul = resize %im {shape = [1, 1, 4, 4], mode = linear}
%ua = resize %im {shape = [1, 1, 3, 3], mode = linear, coordinate_transformation_mode = align_corners}
%uf = resize %im {shape = [1, 1, 2, 6], coordinate_transformation_mode = asymmetric, nearest_mode = floor, scales = [1, 1, 1, 3]}
const %c : f32[1,3,1,1] = [[[[1]], [[2]], [[3]]]]
%l = lrn %c {size = 3, alpha = 3, beta = 1, bias = 1}
run
print %r, %ri, %empty, %up, %ul, %ua, %uf, %l
# CHECK: %r: f32[4] = [1, 1.25, 1.5, 1.75]
# CHECK-NEXT: %ri: i32[2] = [10, 7]
# CHECK-NEXT: %empty: f32[0] = []
# CHECK-NEXT: %up: f32[1,1,4,4] = {{\[\[\[\[}}1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]]]
# CHECK-NEXT: %ul: f32[1,1,4,4] = {{\[\[\[\[}}1, 1.25, 1.75, 2], [1.5, 1.75, 2.25, 2.5], [2.5, 2.75, 3.25, 3.5], [3, 3.25, 3.75, 4]]]]
# CHECK-NEXT: %ua: f32[1,1,3,3] = {{\[\[\[\[}}1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]]]]
# CHECK-NEXT: %uf: f32[1,1,2,6] = {{\[\[\[\[}}1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]]]]
# CHECK-NEXT: %l: f32[1,3,1,1] = {{\[\[\[\[}}0.16666667]], {{\[\[}}0.13333334]], {{\[\[}}0.21428572]]]]
