# onehot's `axis` places the class axis in the result (ONNX OneHot), in [-(r + 1), r];
# negative indices count from the end, out-of-range ones give all-off. Values from
# NumPy: np.moveaxis(onehot over the last axis, -1, axis).
# RUN: %pir run %s | FileCheck %s
const %i : i32[2,3] = [[0, -1, 2], [1, 5, -3]]
%h0 = onehot %i {num_classes = 3, axis = 0}
%h1 = onehot %i {num_classes = 3, axis = 1}
%hm2 = onehot %i {num_classes = 3, axis = -2}
%hl = onehot %i {num_classes = 3, axis = 2, dtype = i32}
run
print %h0, %h1, %hm2, %hl
# CHECK: %h0: f32[3,2,3] = {{\[\[\[1, 0, 0\], \[0, 0, 1\]\], \[\[0, 0, 0\], \[1, 0, 0\]\], \[\[0, 1, 1\], \[0, 0, 0\]\]\]}}
# CHECK: %h1: f32[2,3,3] = {{\[\[\[1, 0, 0\], \[0, 0, 0\], \[0, 1, 1\]\], \[\[0, 0, 1\], \[1, 0, 0\], \[0, 0, 0\]\]\]}}
# CHECK: %hm2: f32[2,3,3] = {{\[\[\[1, 0, 0\], \[0, 0, 0\], \[0, 1, 1\]\], \[\[0, 0, 1\], \[1, 0, 0\], \[0, 0, 0\]\]\]}}
# CHECK: %hl: i32[2,3,3] = {{\[\[\[1, 0, 0\], \[0, 0, 1\], \[0, 0, 1\]\], \[\[0, 1, 0\], \[0, 0, 0\], \[1, 0, 0\]\]\]}}
