# One `$` namespace per IR.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}stream_redefinition.pir:6:5: error: redefinition of $x
# CHECK: {{.*}}stream_redefinition.pir:5:5: note: $x is first defined here
h2d $x : f32[2]
d2h $x : f32[2]
