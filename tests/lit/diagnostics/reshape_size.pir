# reshape keeps the element count.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}reshape_size.pir:5:26: error: reshape: cannot reshape f32[2,3] (6 elements) to [4,2] (8 elements)
const %x : f32[2,3] = 1
%y = reshape %x {shape = [4, 2]}
