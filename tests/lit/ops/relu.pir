# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [-1, 0, 2.5, -0.5]
%y = relu %a
const %i : i32[2] = [-3, 3]
%iy = relu %i
run
print %y, %iy
# CHECK: %y: f32[4] = [0, 0, 2.5, 0]
# CHECK-NEXT: %iy: i32[2] = [0, 3]
