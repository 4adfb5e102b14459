# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [3, -2.5, 0, 0.001]
%y = sign %a
const %i : i32[3] = [5, -6, 0]
%iy = sign %i
run
print %y, %iy
# CHECK: %y: f32[4] = [1, -1, 0, 1]
# CHECK-NEXT: %iy: i32[3] = [1, -1, 0]
