# An exchange block may not consume what it produces.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}exchange_dependency.pir:9:18: error: exchange: host_store consumes %a, produced inside the same exchange block (a data dependency)
# CHECK: {{.*}}exchange_dependency.pir:8:3: note: %a is produced here
h2d $x : f32[2]
d2h $y : f32[2]
exchange {
  %a = host_load $x
  host_store $y, %a
}
