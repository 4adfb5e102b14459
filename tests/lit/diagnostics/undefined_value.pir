# Every name is declared before it is used.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}undefined_value.pir:5:14: error: add: unknown value %nope
const %a : f32[2] = 1
%b = add %a, %nope
