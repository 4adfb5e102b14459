# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%t = transpose %a
const %b : i32[2,1,3] = [[[1, 2, 3]], [[4, 5, 6]]]
%p = transpose %b {perm = [1, 2, 0]}
run
print %t, %p
# CHECK: %t: f32[3,2] = {{\[\[}}1, 4], [2, 5], [3, 6]]
# CHECK-NEXT: %p: i32[1,3,2] = {{\[\[\[}}1, 4], [2, 5], [3, 6]]]
