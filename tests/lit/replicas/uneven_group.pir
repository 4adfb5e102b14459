# A collective's group must partition the replicas: 8 replicas in groups of 3 is rejected.
# RUN: not %pir run %s 2>&1 | FileCheck %s
# CHECK: {{.*}}uneven_group.pir:[[#@LINE+4]]:42: error: replicated_all_reduce: replica grouping (1, 3) is not valid for 8 replicas
ir {replication = 8}
main {
  var %x : f32[3] = 1
  %s = replicated_all_reduce %x {group = (1, 3)}
}
