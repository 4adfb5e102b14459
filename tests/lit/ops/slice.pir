# RUN: %pir run %s | FileCheck %s
const %a : i32[6] = [0, 1, 2, 3, 4, 5]
%s = slice %a {start = [1], stop = [5], step = [2]}
%n = slice %a {start = [-3], stop = [100]}
%r = slice %a {start = [5], stop = [0], step = [-2]}
const %m : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%c = slice %m {start = [1], stop = [3], axes = [1]}
run
print %s, %n, %r, %c
# CHECK: %s: i32[2] = [1, 3]
# CHECK-NEXT: %n: i32[3] = [3, 4, 5]
# CHECK-NEXT: %r: i32[3] = [5, 3, 1]
# CHECK-NEXT: %c: f32[2,2] = {{\[\[}}2, 3], [5, 6]]
