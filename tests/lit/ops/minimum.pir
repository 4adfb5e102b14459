# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [1, 5, -1]
const %b : f32[2,1] = [[2], [0]]
%y = minimum %a, %b
run
print %y
# CHECK: %y: f32[2,3] = {{\[\[}}1, 2, -1], [0, 0, -1]]
