# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
const %b : f32[3] = [10, 20, 30]
%y = add %a, %b
%s = add %a, 0.5
const %i : i32[2] = [7, -9]
%iy = add %i, %i
const %h : f16[2] = [0.1, 1000]
%hy = add %h, %h
const %d : f64[] = 0.1
%dy = add %d, 0.2
run
print %y, %s, %iy, %hy, %dy
# CHECK: %y: f32[2,3] = {{\[\[}}11, 22, 33], [14, 25, 36]]
# CHECK-NEXT: %s: f32[2,3] = {{\[\[}}1.5, 2.5, 3.5], [4.5, 5.5, 6.5]]
# CHECK-NEXT: %iy: i32[2] = [14, -18]
# CHECK-NEXT: %hy: f16[2] = [0.2, 2000]
# CHECK-NEXT: %dy: f64[] = 0.30000000000000004
