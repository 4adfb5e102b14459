# Writing in place to a constant is an error.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}inplace_on_const.pir:6:6: error: add_: cannot write in place to a constant %c
# CHECK: {{.*}}inplace_on_const.pir:5:7: note: %c is declared here
const %c : f32[2] = 1
add_ %c, 1
