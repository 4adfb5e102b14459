# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [1, -2.5, 0]
%y = neg %a
const %i : i32[2] = [5, -6]
%iy = negate %i
run
print %y, %iy
# CHECK: %y: f32[3] = [-1, 2.5, -0]
# CHECK-NEXT: %iy: i32[2] = [-5, 6]
