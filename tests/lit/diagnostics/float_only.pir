# Float-only ops reject integer operands.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}float_only.pir:6:10: error: exp: expects a float operand, got i32[2]
# CHECK: {{.*}}float_only.pir:5:7: note: %i is declared here
const %i : i32[2] = 1
%y = exp %i
