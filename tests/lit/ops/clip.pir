# RUN: %pir run %s | FileCheck %s
const %a : f32[5] = [-2, 0.25, 0.5, 3, -0.5]
%y = clip %a {min = 0, max = 1}
%z = clip %a {max = 0.3}
run
print %y, %z
# CHECK: %y: f32[5] = [0, 0.25, 0.5, 1, 0]
# CHECK-NEXT: %z: f32[5] = [-2, 0.25, 0.3, 0.3, -0.5]
