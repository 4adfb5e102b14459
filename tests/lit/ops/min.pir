# RUN: %pir run %s | FileCheck %s
const %a : i32[2,3] = [[1, 9, 3], [4, -5, 6]]
%all = min %a
%ax0 = min %a {axis = 0}
run
print %all, %ax0
# CHECK: %all: i32[] = -5
# CHECK-NEXT: %ax0: i32[3] = [1, -5, 3]
