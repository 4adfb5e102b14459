# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 9, 3], [4, -5, 6]]
%all = max %a
%ax0 = max %a {axis = 0}
%ax1 = max %a {axis = 1, keepdims = true}
run
print %all, %ax0, %ax1
# CHECK: %all: f32[] = 9
# CHECK-NEXT: %ax0: f32[3] = [4, 9, 6]
# CHECK-NEXT: %ax1: f32[2,1] = {{\[\[}}9], [6]]
