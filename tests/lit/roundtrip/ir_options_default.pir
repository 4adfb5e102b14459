# An `ir {}` whose keys all have their default values prints nothing; an empty
# program prints an empty main.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
ir {replication = 1, num_host_transfers = 1}
# CHECK-NOT: ir
# CHECK: main {
# CHECK-NEXT: }
# CHECK-NOT: {{.}}
