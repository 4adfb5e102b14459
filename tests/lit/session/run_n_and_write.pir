# `run N` runs the main graph N times; `write` overwrites a variable.
# RUN: %pir run %s | FileCheck %s
var %c : i32[] = 0
var %w : f32[2,2] = 0.5
add_ %c, 1
run 5
print %c, %w
# CHECK: %c: i32[] = 5
# CHECK-NEXT: %w: f32[2,2] = {{\[\[}}0.5, 0.5], [0.5, 0.5]]
write %c = 100
write %w = [[1, 2], [3, 4]]
run
print %c, %w
# CHECK-NEXT: %c: i32[] = 101
# CHECK-NEXT: %w: f32[2,2] = {{\[\[}}1, 2], [3, 4]]
run 0
print %c
# CHECK-NEXT: %c: i32[] = 101
