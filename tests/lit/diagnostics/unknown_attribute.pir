# Unknown attribute keys are errors, shown at the key.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}unknown_attribute.pir:5:14: error: sum: unknown attribute 'axes'
const %x : f32[2] = 1
%y = sum %x {axes = 0}
