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

# NaN converts to 0 in every integer type; a bool mask converts to 0 / 1 in any
# length (past the vector loops' widths), as the relu gradient uses it.
const %zero : f32[3] = 0
%nan = div %zero, %zero
%nan64 = cast %nan {dtype = f64}
%ni = cast %nan {dtype = i32}
%nu = cast %nan64 {dtype = u16}
const %h : f32[37] = [-2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2, 1.5, 1.5, -2]
%m = greater %h, 0
%mf = cast %m {dtype = f32}
%mi = cast %m {dtype = i8}
%count = sum %mf
%firsts = slice %mi {start = [0], stop = [4]}
run
print %ni, %nu, %count, %firsts
# CHECK: %ni: i32[3] = [0, 0, 0]
# CHECK-NEXT: %nu: u16[3] = [0, 0, 0]
# CHECK-NEXT: %count: f32[] = 24
# CHECK-NEXT: %firsts: i8[4] = [0, 1, 1, 0]
