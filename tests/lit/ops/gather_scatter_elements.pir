# RUN: %pir run %s | FileCheck %s
# gather_elements and scatter_elements (ONNX GatherElements, ScatterElements):
# negative indices count from the end; `none` keeps the last of duplicate
# updates, the reductions combine them with the element.
const %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
const %i : i32[2,2] = [[2, 0], [-1, 1]]
%g = gather_elements %x, %i {axis = 1}
const %u : f32[2,2] = [[10, 20], [30, 40]]
%s = scatter_elements %x, %i, %u {axis = 1}
const %j : i32[2,2] = [[0, 0], [1, 1]]
%sn = scatter_elements %x, %j, %u {axis = 1}
%sa = scatter_elements %x, %j, %u {axis = 1, reduction = add}
%sm = scatter_elements %x, %j, %u {axis = 1, reduction = mul}
%smin = scatter_elements %x, %j, %u {axis = 1, reduction = min}
%smax = scatter_elements %x, %j, %u {axis = 1, reduction = max}
run
print %g, %s, %sn, %sa, %sm, %smin, %smax
# CHECK: %g: f32[2,2] = {{\[\[}}3, 1], [6, 5]]
# CHECK-NEXT: %s: f32[2,3] = {{\[\[}}20, 2, 10], [4, 40, 30]]
# CHECK-NEXT: %sn: f32[2,3] = {{\[\[}}20, 2, 3], [4, 40, 6]]
# CHECK-NEXT: %sa: f32[2,3] = {{\[\[}}31, 2, 3], [4, 75, 6]]
# CHECK-NEXT: %sm: f32[2,3] = {{\[\[}}200, 2, 3], [4, 6000, 6]]
# CHECK-NEXT: %smin: f32[2,3] = {{\[\[}}1, 2, 3], [4, 5, 6]]
# CHECK-NEXT: %smax: f32[2,3] = {{\[\[}}20, 2, 3], [4, 40, 6]]
