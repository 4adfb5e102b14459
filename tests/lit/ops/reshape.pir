# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%r = reshape %a {shape = [3, 2]}
%m = reshape %a {shape = [-1]}
%s = reshape %a {shape = [1, 6, 1]}
run
print %r, %m, %s
# CHECK: %r: f32[3,2] = {{\[\[}}1, 2], [3, 4], [5, 6]]
# CHECK-NEXT: %m: f32[6] = [1, 2, 3, 4, 5, 6]
# CHECK-NEXT: %s: f32[1,6,1] = {{\[\[\[}}1], [2], [3], [4], [5], [6]]]
