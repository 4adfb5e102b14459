# A redefinition points at both places.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}redefinition.pir:6:1: error: redefinition of %a
# CHECK: {{.*}}redefinition.pir:5:7: note: %a is first defined here
const %a : f32[2] = 1
%a = neg %a
