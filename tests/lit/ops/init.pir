# RUN: %pir run %s | FileCheck %s
%z = init {shape = [2, 2], dtype = f32}
%i = init {shape = [3], dtype = i32, kind = zero}
run
print %z, %i
# CHECK: %z: f32[2,2] = {{\[\[}}0, 0], [0, 0]]
# CHECK-NEXT: %i: i32[3] = [0, 0, 0]
