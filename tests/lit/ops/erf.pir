# RUN: %pir run %s | FileCheck %s
# erf: the error function (ONNX Erf), f32 and f64, odd and saturating.
const %a : f32[5] = [0, 0.5, -0.5, 3, -inf]
%y = erf %a
const %d : f64[2] = [1, -2]
%dy = erf %d
run
print %y, %dy
# CHECK: %y: f32[5] = [0, 0.5204999, -0.5204999, 0.9999779, -1]
# CHECK-NEXT: %dy: f64[2] = [0.8427007929497{{[0-9]*}}, -0.9953222650189{{[0-9]*}}]
