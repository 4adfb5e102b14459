# RUN: %pir run %s | FileCheck %s
const %x : f32[2] = [1, 2]
const %y : f32[2] = [10, 20]
%s = scaled_add %x, %y {a = 2, b = 0.5}
const %a : f32[] = 3
const %b : f32[] = -1
%t = scaled_add %x, %y, %a, %b
run
print %s, %t
# CHECK: %s: f32[2] = [7, 14]
# CHECK-NEXT: %t: f32[2] = [-7, -14]
