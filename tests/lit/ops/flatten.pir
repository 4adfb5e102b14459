# RUN: %pir run %s | FileCheck %s
const %a : i32[2,2,2] = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
%f = flatten %a
run
print %f
# CHECK: %f: i32[8] = [1, 2, 3, 4, 5, 6, 7, 8]
