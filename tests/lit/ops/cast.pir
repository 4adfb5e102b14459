# RUN: %pir run %s | FileCheck %s
const %a : f32[6] = [2.7, -2.7, 3e9, -3e9, 0.5, 0]
%i = cast %a {dtype = i32}
%u = cast %a {dtype = u8}
%b = cast %a {dtype = bool}
const %n : i32[2] = [16777217, -3]
%f = cast %n {dtype = f32}
%d = cast %n {dtype = f64}
run
print %i, %u, %b, %f, %d
# CHECK: %i: i32[6] = [2, -2, 2147483647, -2147483648, 0, 0]
# CHECK-NEXT: %u: u8[6] = [2, 0, 255, 0, 0, 0]
# CHECK-NEXT: %b: bool[6] = [true, true, true, true, true, false]
# CHECK-NEXT: %f: f32[2] = [16777216, -3]
# CHECK-NEXT: %d: f64[2] = [16777217, -3]
