# reshape_ returns a view of its operand that shares its storage (the flat element
# order is unchanged): reading the operand afterwards gives its own value, and
# writes through either name are seen through the other.
# RUN: %pir run %s | FileCheck %s
var %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%r = reshape_ %x {shape = [3, 2]}
%before = identity %x
add_ %r, [[1, 1], [1, 1], [100, 100]]
%after = identity %x
neg_ %x
# A transpose_ that moves only size-1 axes keeps the flat order: also shared.
var %y : f32[1,3] = [[1, 2, 3]]
%yt = transpose_ %y
add_ %yt, 1
run
print %before, %after, %x, %r, %y, %yt
# CHECK: %before: f32[2,3] = {{\[\[}}1, 2, 3], [4, 5, 6]]
# CHECK-NEXT: %after: f32[2,3] = {{\[\[}}2, 3, 4], [5, 105, 106]]
# CHECK-NEXT: %x: f32[2,3] = {{\[\[}}-2, -3, -4], [-5, -105, -106]]
# CHECK-NEXT: %r: f32[3,2] = {{\[\[}}-2, -3], [-4, -5], [-105, -106]]
# CHECK-NEXT: %y: f32[1,3] = {{\[\[}}2, 3, 4]]
# CHECK-NEXT: %yt: f32[3,1] = {{\[\[}}2], [3], [4]]
