# Out-of-range IR options are errors.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}ir_out_of_range.pir:4:19: error: ir: replication = 0 is out of range [1, 65536]
ir {replication = 0}
