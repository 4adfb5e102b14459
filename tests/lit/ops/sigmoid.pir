# RUN: %pir run %s | FileCheck %s
const %a : f32[3] = [0, 2, -1]
%y = sigmoid %a
run
print %y
# CHECK: %y: f32[3] = [0.5, 0.8807{{[0-9]*}}, 0.2689{{[0-9]*}}]
