# Axes are checked against the rank.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}bad_axis.pir:5:25: error: softmax: axis 2 is out of range for f32[2,3] (rank 2)
const %x : f32[2,3] = 1
%y = softmax %x {axis = 2}
