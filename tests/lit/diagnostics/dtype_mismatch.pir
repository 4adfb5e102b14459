# Binary operands need equal dtypes.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}dtype_mismatch.pir:7:14: error: add: operand types f32[2] and i32[2] have different dtypes
# CHECK: {{.*}}dtype_mismatch.pir:6:7: note: %i is declared here
const %x : f32[2] = 1
const %i : i32[2] = 1
%y = add %x, %i
