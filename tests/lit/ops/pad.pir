# RUN: %pir run %s | FileCheck %s
# pad (ONNX Pad): constant, reflect and edge (NumPy's np.pad modes), reflect wider
# than the axis (folds back), and a negative pad that crops.
const %x : f32[3,2] = [[1, 1.2], [2.3, 3.4], [4.5, 5.7]]
%c = pad %x {pads = [0, 2, 0, 0], value = 9}
%r = pad %x {pads = [0, 2, 0, 0], mode = reflect}
%e = pad %x {pads = [1, 0, 0, 1], mode = edge}
const %v : i32[3] = [1, 2, 3]
%w = pad %v {pads = [5, 4], mode = reflect}
%k = pad %v {pads = [-1, 1]}
run
print %c, %r, %e, %w, %k
# CHECK: %c: f32[3,4] = {{\[\[}}9, 9, 1, 1.2], [9, 9, 2.3, 3.4], [9, 9, 4.5, 5.7]]
# CHECK-NEXT: %r: f32[3,4] = {{\[\[}}1, 1.2, 1, 1.2], [2.3, 3.4, 2.3, 3.4], [4.5, 5.7, 4.5, 5.7]]
# CHECK-NEXT: %e: f32[4,3] = {{\[\[}}1, 1.2, 1.2], [1, 1.2, 1.2], [2.3, 3.4, 3.4], [4.5, 5.7, 5.7]]
# CHECK-NEXT: %w: i32[12] = [2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3]
# CHECK-NEXT: %k: i32[3] = [2, 3, 0]
