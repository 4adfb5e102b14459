# RUN: %pir run %s | FileCheck %s
var %t : f32[2] = [1, 2]
var %u : f32[2] = [10, 20]
var %z : f32[2] = [5, 5]
var %c : f32[2] = [0, 0]
const %x : f32[2] = [0.5, 1]
accumulate_ %t, %x
accumulate_ %u, %x {f = 2}
scaled_add_ %z, %x {a = 0.5, b = -2}
copy_var_update_ %c, %x
run
print %t, %u, %z, %c
# CHECK: %t: f32[2] = [1.5, 3]
# CHECK-NEXT: %u: f32[2] = [11, 22]
# CHECK-NEXT: %z: f32[2] = [1.5, 0.5]
# CHECK-NEXT: %c: f32[2] = [0.5, 1]
