# Dimensions are non-negative integers.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_bad_dim.pir:4:16: error: expected a dimension (a non-negative integer)
h2d $x : f32[2,-1]
