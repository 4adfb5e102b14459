# RUN: %pir run %s | FileCheck %s
const %a : f32[4] = [1, 0.5, 10, 0]
%y = log %a
run
print %y
# CHECK: %y: f32[4] = [0, -0.6931{{[0-9]*}}, 2.3025{{[0-9]*}}, -inf]
