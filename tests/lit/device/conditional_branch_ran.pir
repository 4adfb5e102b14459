# The profile lists the conditional branch that ran (profile-schema.md: every
# executed op), not the costlier one: @cheap ran, @costly did not. Over runs that
# took both, each branch gets its share of the executions per run. Without any run
# (nothing observed) the costlier branch is the estimate.
# RUN: %pir profile %s | FileCheck %s
# RUN: sed -e 's/^run$/run 4/' -e 's/^feed $c = true$/feed $c = false/' %s > %t.else.pir && %pir profile %t.else.pir | FileCheck %s --check-prefix=ELSE
# RUN: sed -e 's/^run$//' %s > %t.norun.pir && %pir profile %t.norun.pir | FileCheck %s --check-prefix=STATIC
# CHECK: ops by cycles (3):
# CHECK-DAG: {{[0-9]+ +1 .*}}%y = neg in @cheap {{.*}}:21:
# CHECK-DAG: {{[0-9]+ +1 .*}}%r = conditional
# CHECK-DAG: {{[0-9]+ +1 .*}}%c = host_load
# CHECK-NOT: exp
# ELSE: ops by cycles (4):
# ELSE-DAG: {{[0-9]+ +1 .*}}%e = exp in @costly {{.*}}:25:
# ELSE-DAG: {{[0-9]+ +1 .*}}%f = exp in @costly {{.*}}:26:
# ELSE-NOT: neg
# STATIC: %e = exp
# STATIC-NOT: neg
h2d $c : bool[]
graph @cheap(%x: f32[1000]) -> (f32[1000]) {
  %y = neg %x
  return %y
}
graph @costly(%x: f32[1000]) -> (f32[1000]) {
  %e = exp %x
  %f = exp %e
  return %f
}
main {
  const %a : f32[1000] = 1
  %c = host_load $c
  %r = conditional %c, @cheap(%a), @costly(%a)
}
feed $c = true
run
