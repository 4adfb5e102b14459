# Past the last slot a stream cursor wraps to slot 0; cursors reset each run.
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 2}
h2d $x : i32[]
main {
  %a = host_load $x
  %b = host_load $x
  %c = host_load $x
}
feed $x = [10, 20]
run
print %a, %b, %c
# CHECK: %a: i32[] = 10
# CHECK-NEXT: %b: i32[] = 20
# CHECK-NEXT: %c: i32[] = 10
run
print %a
# CHECK-NEXT: %a: i32[] = 10
