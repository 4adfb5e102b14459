# RUN: %pir run %s | FileCheck %s
const %a : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%all = prod %a
%ax0 = prod %a {axis = 0}
run
print %all, %ax0
# CHECK: %all: f32[] = 720
# CHECK-NEXT: %ax0: f32[3] = [4, 10, 18]
