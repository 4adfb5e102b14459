# A command after more statements were added to main runs the grown program;
# variable values are kept.
# RUN: %pir run %s | FileCheck %s
var %v : f32[] = 1
mul_ %v, 2
run
print %v
# CHECK: %v: f32[] = 2
%w = add %v, 10
run
print %v, %w
# CHECK-NEXT: %v: f32[] = 4
# CHECK-NEXT: %w: f32[] = 14
