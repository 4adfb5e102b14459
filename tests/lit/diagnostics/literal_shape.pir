# Data nesting must match the declared shape.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}literal_shape.pir:4:23: error: const %x: data of shape [3] does not match f32[2,2]
const %x : f32[2,2] = [1, 2, 3]
