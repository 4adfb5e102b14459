# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [1, 5, -1]
const %b : f32[3] = [2, 4, -3]
const %c : f32[] = 0
%y = maximum %a, %b
%z = maximum %a, %b, %c
const %i : i32[2] = [1, -1]
%iy = maximum %i, 0
run
print %y, %z, %iy
# CHECK: %y: f32[3] = [2, 5, -1]
# CHECK-NEXT: %z: f32[3] = [2, 5, 0]
# CHECK-NEXT: %iy: i32[2] = [1, 0]
