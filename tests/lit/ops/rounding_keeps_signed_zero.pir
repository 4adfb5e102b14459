# ceil, floor and round keep the sign of a zero result at every position (the
# vector loop and the scalar tail agree); NumPy: np.ceil(np.full(5, -0.5)) is -0.
# RUN: %pir run %s | FileCheck %s
const %x : f32[19] = -0.5
const %y : f64[9] = -0.25
const %z : f32[17] = -0
%c = ceil %x
%r = reciprocal %c
%d = ceil %y
%f = floor %z
%n = round %y
run
print %c, %r, %d, %f, %n
# CHECK: %c: f32[19] = [-0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0]
# CHECK-NEXT: %r: f32[19] = [-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf]
# CHECK-NEXT: %d: f64[9] = [-0, -0, -0, -0, -0, -0, -0, -0, -0]
# CHECK-NEXT: %f: f32[17] = [-0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0, -0]
# CHECK-NEXT: %n: f64[9] = [-0, -0, -0, -0, -0, -0, -0, -0, -0]
