# With R > 1 a runtime error names the replica.
# RUN: not %pir run %s 2>&1 | FileCheck %s
ir {replication = 2}
h2d $d : i32[]
main {
  const %n : i32[] = 6
  %d = host_load $d
  %q = div %n, %d
}
feed $d = [3, 0]
run
# CHECK: replica_index.pir:8:{{[0-9]+}}: error: div: integer division by zero{{.*}}replica 1
