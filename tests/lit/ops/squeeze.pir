# RUN: %pir run %s | FileCheck %s
const %a : f32[1,2,1] = [[[1], [2]]]
%s = squeeze %a
%s0 = squeeze %a {axes = [0]}
%u = unsqueeze %s {axes = [0, 2]}
run
print %s, %s0, %u
# CHECK: %s: f32[2] = [1, 2]
# CHECK-NEXT: %s0: f32[2,1] = {{\[\[}}1], [2]]
# CHECK-NEXT: %u: f32[1,2,1] = {{\[\[\[}}1], [2]]]
