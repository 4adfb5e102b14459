# RUN: %pir run %s | FileCheck %s
const %a : bool[4] = [true, true, false, false]
const %b : bool[4] = [true, false, true, false]
%and = logical_and %a, %b
%or = logical_or %a, %b
%xor = logical_xor %a, %b
%not = logical_not %a
run
print %and, %or, %xor, %not
# CHECK: %and: bool[4] = [true, false, false, false]
# CHECK-NEXT: %or: bool[4] = [true, true, true, false]
# CHECK-NEXT: %xor: bool[4] = [false, true, true, false]
# CHECK-NEXT: %not: bool[4] = [false, false, true, true]
