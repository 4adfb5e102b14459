# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [1, 2, 3, nan]
const %b : f32[4] = [2, 2, 2, nan]
%eq = equal %a, %b
%ne = not_equal %a, %b
%gt = greater %a, %b
%ge = greater_equal %a, %b
%lt = less %a, %b
%le = less_equal %a, 2
run
print %eq, %ne, %gt, %ge, %lt, %le
# CHECK: %eq: bool[4] = [false, true, false, false]
# CHECK-NEXT: %ne: bool[4] = [true, false, true, true]
# CHECK-NEXT: %gt: bool[4] = [false, false, true, false]
# CHECK-NEXT: %ge: bool[4] = [false, true, true, false]
# CHECK-NEXT: %lt: bool[4] = [true, false, false, false]
# CHECK-NEXT: %le: bool[4] = [true, true, false, false]
