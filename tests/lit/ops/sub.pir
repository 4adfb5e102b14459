# RUN: %pir run %s | FileCheck %s
const %a : f32[2,2] = [[1, 2], [3, 4]]
const %b : f32[2,1] = [[0.5], [10]]
%y = sub %a, %b
const %u : u32[2] = [10, 3]
%uy = sub %u, 3
run
print %y, %uy
# CHECK: %y: f32[2,2] = {{\[\[}}0.5, 1.5], [-7, -6]]
# CHECK-NEXT: %uy: u32[2] = [7, 0]
