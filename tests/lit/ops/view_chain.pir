# Chains of views: a write through the last view of a chain reaches the root, and
# every other view of the root (siblings, descendants) sees it.
# RUN: %pir run %s | FileCheck %s
var %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%r = reshape_ %x {shape = [3, 2]}
%t = transpose_ %r
%u = transpose_ %t {perm = [1, 0]}
%t2 = transpose_ %x
add_ %t, [[10, 0, 0], [0, 0, 0]]
%y = identity %x
%s = identity %t2
%uu = identity %u
mul_ %u, 2
%y2 = identity %x
%s2 = identity %t2
%tt = identity %t
run
print %y, %s, %uu, %y2, %s2, %tt, %x, %r, %t, %u, %t2
# CHECK: %y: f32[2,3] = {{\[\[}}11, 2, 3], [4, 5, 6]]
# CHECK-NEXT: %s: f32[3,2] = {{\[\[}}11, 4], [2, 5], [3, 6]]
# CHECK-NEXT: %uu: f32[3,2] = {{\[\[}}11, 2], [3, 4], [5, 6]]
# CHECK-NEXT: %y2: f32[2,3] = {{\[\[}}22, 4, 6], [8, 10, 12]]
# CHECK-NEXT: %s2: f32[3,2] = {{\[\[}}22, 8], [4, 10], [6, 12]]
# CHECK-NEXT: %tt: f32[2,3] = {{\[\[}}22, 6, 10], [4, 8, 12]]
# CHECK-NEXT: %x: f32[2,3] = {{\[\[}}22, 4, 6], [8, 10, 12]]
# CHECK-NEXT: %r: f32[3,2] = {{\[\[}}22, 4], [6, 8], [10, 12]]
# CHECK-NEXT: %t: f32[2,3] = {{\[\[}}22, 6, 10], [4, 8, 12]]
# CHECK-NEXT: %u: f32[3,2] = {{\[\[}}22, 4], [6, 8], [10, 12]]
# CHECK-NEXT: %t2: f32[3,2] = {{\[\[}}22, 8], [4, 10], [6, 12]]
