# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
const %b : f32[3,2] = [[1, 0], [0, 1], [1, 1]]
%y = matmul %a, %b
const %v : f32[3] = [1, 1, 1]
%av = matmul %a, %v
%va = matmul %v, %b
const %batch : f32[2,1,3] = [[[1, 0, 0]], [[0, 0, 2]]]
%bb = matmul %batch, %b
const %i : i32[2,2] = [[1, 2], [3, 4]]
%ii = matmul %i, %i
run
print %y, %av, %va, %bb, %ii
# CHECK: %y: f32[2,2] = {{\[\[}}4, 5], [10, 11]]
# CHECK-NEXT: %av: f32[2] = [6, 15]
# CHECK-NEXT: %va: f32[2] = [2, 2]
# CHECK-NEXT: %bb: f32[2,1,2] = {{\[\[\[}}1, 0]], {{\[\[}}2, 2]]]
# CHECK-NEXT: %ii: i32[2,2] = {{\[\[}}7, 10], [15, 22]]
