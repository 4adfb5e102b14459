# Variable initialisers: literals (broadcast scalars), zeros, ones.
# RUN: %pir run %s | FileCheck %s
var %a : f32[2,2] = 3
var %b : i32[3] = zeros
var %c : f16[2] = ones
var %d : bool[2] = [true, false]
var %e : u8[2] = [0, 255]
run
print %a, %b, %c, %d, %e
# CHECK: %a: f32[2,2] = {{\[\[}}3, 3], [3, 3]]
# CHECK-NEXT: %b: i32[3] = [0, 0, 0]
# CHECK-NEXT: %c: f16[2] = [1, 1]
# CHECK-NEXT: %d: bool[2] = [true, false]
# CHECK-NEXT: %e: u8[2] = [0, 255]
