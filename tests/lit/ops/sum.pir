# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%all = sum %a
%ax0 = sum %a {axis = 0}
%ax1 = sum %a {axis = -1, keepdims = true}
%both = sum %a {axis = [0, 1], keepdims = true}
const %i : i32[3] = [1, 2, 3]
%isum = sum %i
run
print %all, %ax0, %ax1, %both, %isum
# CHECK: %all: f32[] = 21
# CHECK-NEXT: %ax0: f32[3] = [5, 7, 9]
# CHECK-NEXT: %ax1: f32[2,1] = {{\[\[}}6], [15]]
# CHECK-NEXT: %both: f32[1,1] = {{\[\[}}21]]
# CHECK-NEXT: %isum: i32[] = 6
