# gather_grad, gather's gradient for x: zeros of x's type with each slab of g added
# at its index along `axis`; repeated indices add up, negative ones count from the end.
# RUN: %pir run %s | FileCheck %s
# RUN: %pir opt %s | FileCheck %s --check-prefix=OPT
# Axis 0, indices 2, 0, -1 (= 2), 2: row 2 gets three slabs, row 1 none.
const %g : f32[4,2] = [[1, 2], [3, 4], [5, 6], [7, 8]]
const %i : i32[4] = [2, 0, -1, 2]
%r = gather_grad %g, %i {size = 3}
# Axis 1 with indices of rank 2: x was f32[2,3], g is f32[2,2,2].
const %g2 : f32[2,2,2] = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
const %i2 : i32[2,2] = [[0, 2], [2, -1]]
%r2 = gather_grad %g2, %i2 {axis = 1, size = 3}
# A trailing axis after the indices: x was f32[2,3,2], g f32[2,2,2] (axis -2 = 1).
const %i3 : i32[2] = [1, 1]
%r3 = gather_grad %g2, %i3 {axis = -2, size = 3}
# f16 adds up in f32 and rounds once: 2048 + 1 + 1 = 2050 (in f16 steps, 2048).
const %h : f16[3,1] = [[2048], [1], [1]]
const %z : i32[3] = [0, 0, 0]
%rh = gather_grad %h, %z {size = 2}
# No indices: zeros.
const %e : f64[0,2] = 0
const %ei : i32[0] = 0
%re = gather_grad %e, %ei {size = 2}
run
print %r, %r2, %r3, %rh, %re
# CHECK: %r: f32[3,2] = {{\[\[}}3, 4], [0, 0], [13, 16]]
# CHECK-NEXT: %r2: f32[2,3] = {{\[\[}}1, 0, 9], [5, 0, 21]]
# CHECK-NEXT: %r3: f32[2,3,2] = {{\[\[\[}}0, 0], [4, 6], [0, 0]], {{\[\[}}0, 0], [12, 14], [0, 0]]]
# CHECK-NEXT: %rh: f16[2,1] = {{\[\[}}2050], [0]]
# CHECK-NEXT: %re: f64[2,2] = {{\[\[}}0, 0], [0, 0]]
# OPT: %r = gather_grad %g, %i {size = 3} : f32[3,2]
# OPT: %r2 = gather_grad %g2, %i2 {size = 3, axis = 1} : f32[2,3]
