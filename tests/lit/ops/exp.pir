# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [0, 1, -1, 2]
%y = exp %a
const %d : f64[2] = [0, 1]
%dy = exp %d
run
print %y, %dy
# CHECK: %y: f32[4] = [1, 2.7182{{[0-9]*}}, 0.3678{{[0-9]*}}, 7.3890{{[0-9]*}}]
# CHECK-NEXT: %dy: f64[2] = [1, 2.7182{{[0-9]*}}]
