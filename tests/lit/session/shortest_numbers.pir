# Numbers print in std::to_chars' shortest form (tools.md §3): the shorter of
# fixed and scientific, fixed on a tie; in each dtype's own precision.
# RUN: %pir run %s | FileCheck %s
var %d : f64[8] = [100000000, 1000000000000000, 1000000, 100000, 12345, 0.0001, 0.001, 123456789]
var %f : f32[4] = [1e8, 0.1, 16777216, 1.5e-7]
var %h : f16[4] = [60000, 1000, 0.0001, 65504]
main {}
print %d
print %f
print %h
# CHECK: %d: f64[8] = [1e+08, 1e+15, 1e+06, 1e+05, 12345, 1e-04, 0.001, 123456789]
# CHECK-NEXT: %f: f32[4] = [1e+08, 0.1, 16777216, 1.5e-07]
# CHECK-NEXT: %h: f16[4] = [60000, 1000, 1e-04, 65500]
