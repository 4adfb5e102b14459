# RUN: %pir run %s | FileCheck %s
const %a : i32[2,2] = [[1, 2], [3, 4]]
%y = identity %a
run
print %y
# CHECK: %y: i32[2,2] = {{\[\[}}1, 2], [3, 4]]
