# Binary operands must broadcast; the error names both types.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}broadcast_mismatch.pir:7:14: error: add: operand types f32[2,3] and f32[4] do not broadcast
# CHECK: {{.*}}broadcast_mismatch.pir:6:7: note: %b is declared here
const %x : f32[2,3] = 1
const %b : f32[4] = 1
%y = add %x, %b
