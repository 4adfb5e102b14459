# Streams advance independently: $x is loaded twice per run, $k once.
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 2}
h2d $x : f32[2]
h2d $k : f32[]
d2h $y : f32[2]
main {
  %x0 = host_load $x
  %x1 = host_load $x
  %k = host_load $k
  %s = add %x0, %x1
  %y = mul %s, %k
  host_store $y, %y
}
feed $x = [[1, 2], [3, 4]]
feed $k = [10, 20]
run
print $y, %k
# CHECK: $y: f32[2,2] = {{\[\[}}40, 60], [0, 0]]
# CHECK-NEXT: %k: f32[] = 10
