# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [0, 0.5, -3]
%y = tanh %a
run
print %y
# CHECK: %y: f32[3] = [0, 0.4621{{[0-9]*}}, -0.9950{{[0-9]*}}]
