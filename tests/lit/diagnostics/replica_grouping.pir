# Replica groupings must partition the replicas.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}replica_grouping.pir:5:40: error: var %w: replica grouping (3, 2) is not valid for 4 replicas
ir {replication = 4}
var %w : f32[] = 1 {replica_grouping = (3, 2)}
