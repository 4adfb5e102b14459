# dropout's p must be in [0, 1): p = 1 would scale by 1/0.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}random_dropout_p.pir:7:29: error: dropout: p must be in [0, 1), got 1{{(\.0*)?$}}
# CHECK-NEXT: %d = dropout %x, %seed {p = 1}
const %x : f32[4] = 1
const %seed : u32[2] = [1, 2]
%d = dropout %x, %seed {p = 1}
