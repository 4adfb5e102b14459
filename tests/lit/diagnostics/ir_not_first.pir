# `ir {...}` comes before any other item.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}ir_not_first.pir:5:1: error: ir: `ir {...}` must come before any other item
h2d $x : f32[]
ir {replication = 2}
