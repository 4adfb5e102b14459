# clip with min > max gives max everywhere (NumPy, PyTorch and ONNX: min(max(x,
# min), max)), on every dtype path and in place; NaN stays NaN.
# RUN: %pir run %s | FileCheck %s
const %a : f32[6] = [1, 3, 3, 2, 3, nan]
const %d : f64[5] = [1, 3, 3, 2, 3]
const %h : f16[5] = [1, 3, 3, 2, 3]
const %i : i32[5] = [1, 3, 3, 2, 3]
var %w : f32[5] = [1, 3, 3, 2, 3]
%ya = clip %a {min = 2.5, max = 1}
%yd = clip %d {min = 2.5, max = 1}
%yh = clip %h {min = 2.5, max = 1}
%yi = clip %i {min = 2.5, max = 1}
%yw = clip_ %w {min = 2.5, max = 1}
run
print %ya, %yd, %yh, %yi, %w
# CHECK: %ya: f32[6] = [1, 1, 1, 1, 1, nan]
# CHECK-NEXT: %yd: f64[5] = [1, 1, 1, 1, 1]
# CHECK-NEXT: %yh: f16[5] = [1, 1, 1, 1, 1]
# CHECK-NEXT: %yi: i32[5] = [1, 1, 1, 1, 1]
# CHECK-NEXT: %w: f32[5] = [1, 1, 1, 1, 1]
