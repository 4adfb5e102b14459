# A type needs its shape.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_missing_shape.pir:4:13: error: expected '[' and the dimensions after the dtype, as in f32[2,3]
h2d $x : f32
