# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [4, 2, 0, -1]
%y = sqrt %a
run
print %y
# CHECK: %y: f32[4] = [2, 1.4142135, 0, nan]
