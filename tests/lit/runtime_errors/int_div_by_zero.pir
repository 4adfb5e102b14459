# Integer division by zero is a runtime error at the op, exit status 1.
# RUN: not %pir run %s 2>&1 | FileCheck %s
const %i : i32[2] = [7, 8]
const %j : i32[2] = [1, 0]
%q = div %i, %j
run
# CHECK: int_div_by_zero.pir:5:{{[0-9]+}}: error: div: integer division by zero
# CHECK-NEXT: %q = div %i, %j
