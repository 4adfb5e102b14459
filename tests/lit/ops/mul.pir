# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [1.5, -2, 0]
%y = mul %a, %a
const %i : i8[3] = [3, -4, 5]
%iy = mul %i, 2
run
print %y, %iy
# CHECK: %y: f32[3] = [2.25, 4, 0]
# CHECK-NEXT: %iy: i8[3] = [6, -8, 10]
