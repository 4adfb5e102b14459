# A written result type is checked against the inferred one.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}result_type_mismatch.pir:5:15: error: neg: result type f32[3] does not match the inferred type f32[2]
const %x : f32[2] = 1
%y = neg %x : f32[3]
