# Unknown attribute keys are errors.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}unknown_attribute.pir:5:21: error: sum: unknown attribute 'axes'
const %x : f32[2] = 1
%y = sum %x {axes = 0}
