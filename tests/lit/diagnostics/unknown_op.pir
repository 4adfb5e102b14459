# Op names come from the op catalogue.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}unknown_op.pir:5:6: error: unknown op 'frobnicate'
const %a : f32[2] = 1
%b = frobnicate %a
