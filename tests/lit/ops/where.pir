# RUN: %pir run %s | FileCheck %s
const %c : bool[2,1] = [[true], [false]]
const %x : f32[3] = [1, 2, 3]
const %y : f32[] = -1
%w = where %c, %x, %y
run
print %w
# CHECK: %w: f32[2,3] = {{\[\[}}1, 2, 3], [-1, -1, -1]]
