# Values loaded inside an exchange block are printed after a run like any
# other main-graph value (an op inside a block is numbered within the block).
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 2}
h2d $x : i32[]
main {
  exchange {
    %a = host_load $x
    %b = host_load $x
    %c = host_load $x
  }
}
feed $x = [10, 20]
run
print %a, %b, %c
# CHECK: %a: i32[] = 10
# CHECK-NEXT: %b: i32[] = 20
# CHECK-NEXT: %c: i32[] = 10
