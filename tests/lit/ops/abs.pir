# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [1, -2.5, -0]
%y = abs %a
const %i : i16[2] = [5, -6]
%iy = abs %i
run
print %y, %iy
# CHECK: %y: f32[3] = [1, 2.5, 0]
# CHECK-NEXT: %iy: i16[2] = [5, 6]
