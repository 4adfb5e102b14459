# An index outside [-size, size) is a runtime error at the op, as in gather.
# RUN: not %pir run %s 2>&1 | FileCheck %s
const %g : f32[2,2] = 1
const %i : i32[2] = [0, 3]
%r = gather_grad %g, %i {size = 3}
run
# CHECK: gather_grad_index.pir:5:{{[0-9]+}}: error: gather_grad: index 3 is out of range for an axis of size 3
