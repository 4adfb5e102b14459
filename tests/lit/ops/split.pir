# RUN: %pir run %s | FileCheck %s
const %a : i32[5] = [1, 2, 3, 4, 5]
%x, %y = split %a {splits = [2, 3]}
const %m : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%l, %r = split %m {splits = [1, 2], axis = 1}
run
print %x, %y, %l, %r
# CHECK: %x: i32[2] = [1, 2]
# CHECK-NEXT: %y: i32[3] = [3, 4, 5]
# CHECK-NEXT: %l: f32[2,1] = {{\[\[}}1], [4]]
# CHECK-NEXT: %r: f32[2,2] = {{\[\[}}2, 3], [5, 6]]
