# RUN: %pir run %s | FileCheck %s
var %a : f32[2] = [3, 4]
var %b : f32[2] = [3, 4]
accumulator_scale_ %a {f = 0.5}
accumulator_zero_ %b
run 2
print %a, %b
# CHECK: %a: f32[2] = [0.75, 1]
# CHECK-NEXT: %b: f32[2] = [0, 0]
