# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [2, 9, 4, 0]
const %b : f32[4] = [3, 0.5, -1, 0]
%y = pow %a, %b
run
print %y
# CHECK: %y: f32[4] = [8, 3, 0.25, 1]
