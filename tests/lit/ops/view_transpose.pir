# transpose_ returns a view of its operand (PopXL; docs/decisions.md "Views"): the
# operand keeps its type and element order; an in-place write through the view
# changes the operand's elements, and a write to the operand shows through the view.
# RUN: %pir run %s | FileCheck %s
var %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%t = transpose_ %x
%before = identity %x
%view = identity %t
add_ %t, [[10, 40], [20, 50], [30, 60]]
%after = identity %x
mul_ %x, 2
%seen = identity %t
# A bound in-place result through the view aliases it too.
%u = sub_ %t, 1
%x2 = identity %x
run
print %before, %view, %after, %seen, %x2, %x, %t, %u
# CHECK: %before: f32[2,3] = {{\[\[}}1, 2, 3], [4, 5, 6]]
# CHECK-NEXT: %view: f32[3,2] = {{\[\[}}1, 4], [2, 5], [3, 6]]
# CHECK-NEXT: %after: f32[2,3] = {{\[\[}}11, 22, 33], [44, 55, 66]]
# CHECK-NEXT: %seen: f32[3,2] = {{\[\[}}22, 88], [44, 110], [66, 132]]
# CHECK-NEXT: %x2: f32[2,3] = {{\[\[}}21, 43, 65], [87, 109, 131]]
# CHECK-NEXT: %x: f32[2,3] = {{\[\[}}21, 43, 65], [87, 109, 131]]
# CHECK-NEXT: %t: f32[3,2] = {{\[\[}}21, 87], [43, 109], [65, 131]]
# CHECK-NEXT: %u: f32[3,2] = {{\[\[}}21, 87], [43, 109], [65, 131]]
