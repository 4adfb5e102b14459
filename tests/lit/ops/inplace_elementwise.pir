# RUN: %pir run %s | FileCheck %s
var %w : f32[3] = [1, -2, 3]
const %d : f32[3] = [1, 1, 1]
add_ %w, %d
mul_ %w, 2
sub_ %w, 1
div_ %w, 2
relu_ %w
%e = exp_ %w
run
print %w
# CHECK: %w: f32[3] = [4.4816{{[0-9]*}}, 1, 33.115{{[0-9]*}}]
