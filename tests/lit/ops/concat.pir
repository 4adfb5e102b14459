# RUN: %pir run %s | FileCheck %s
const %a : f32[2,1] = [[1], [2]]
const %b : f32[2,2] = [[3, 4], [5, 6]]
%c = concat %a, %b {axis = 1}
%d = concat %b, %b
run
print %c, %d
# CHECK: %c: f32[2,3] = {{\[\[}}1, 3, 4], [2, 5, 6]]
# CHECK-NEXT: %d: f32[4,2] = {{\[\[}}3, 4], [5, 6], [3, 4], [5, 6]]
