# RUN: %pir run %s | FileCheck %s
const %a : f32[2,1] = [[1], [2]]
%b = broadcast %a {shape = [2, 2, 3]}
run
print %b
# CHECK: %b: f32[2,2,3] = {{\[\[\[}}1, 1, 1], [2, 2, 2]], {{\[\[}}1, 1, 1], [2, 2, 2]]]
