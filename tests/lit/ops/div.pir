# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [1, -1, 0, 3]
%y = div %a, 0
%z = div %a, 4
const %i : i32[4] = [7, -7, 7, -7]
const %j : i32[4] = [2, 2, -2, -2]
%q = div %i, %j
run
print %y, %z, %q
# CHECK: %y: f32[4] = [inf, -inf, nan, inf]
# CHECK-NEXT: %z: f32[4] = [0.25, -0.25, 0, 0.75]
# CHECK-NEXT: %q: i32[4] = [3, -3, -3, 3]
