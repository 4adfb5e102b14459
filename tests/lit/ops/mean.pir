# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 7]]
%all = mean %a
%ax1 = mean %a {axis = 1}
run
print %all, %ax1
# CHECK: %all: f32[] = 3.6666667
# CHECK-NEXT: %ax1: f32[2] = [2, 5.3333335]
