# Data lists are rectangular.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}ragged_literal.pir:4:32: error: ragged list: expected 2 elements, found 1
const %x : f32[2,2] = [[1, 2], [3]]
