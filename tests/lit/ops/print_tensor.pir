# RUN: %pir run %s | FileCheck %s
const %a : f32[2] = [1.5, 2]
%p = print_tensor %a {title = "a"}
%q = add %p, 1
print_tensor %q {title = "q"}
run
# CHECK: a: [1.5, 2]
# CHECK-NEXT: q: [2.5, 3]
