# dtype names come from the dtype table.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}unknown_dtype.pir:4:10: error: unknown dtype 'f33'
h2d $x : f33[2]
