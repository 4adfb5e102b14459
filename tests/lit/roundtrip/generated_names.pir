# Unnamed results get generated names; a name the user writes later takes
# precedence and the generated one moves to the next free number. The printed
# form is a fixed point.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
const %a : f32[2] = [1, 2]
%s = split %a {splits = [1, 1]}
%0 = add %a, %a
%t = add %s, %0
run
print %0, %t
# CHECK:      %s, %1 = split %a {splits = [1, 1]}
# CHECK-NEXT: %0 = add %a, %a
# VALUES:      %0: f32[2] = [2, 4]
# VALUES-NEXT: %t: f32[2] = [3, 5]
