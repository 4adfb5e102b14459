# d2h slots not written in a run keep their values from the previous run
# (zero before the first run).
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 2}
h2d $x : f32[]
h2d $flag : bool[]
d2h $y : f32[]
graph @store(%v: f32[]) -> () {
  host_store $y, %v
  return
}
graph @skip(%v: f32[]) -> () {
  return
}
main {
  %a = host_load $x
  %f = host_load $flag
  host_store $y, %a
  conditional %f, @store(%a), @skip(%a)
}
feed $x = [1, 2]
feed $flag = [false, false]
run
print $y
# CHECK: $y: f32[2] = [1, 0]
feed $x = [3, 4]
feed $flag = [true, true]
run
print $y
# CHECK-NEXT: $y: f32[2] = [3, 3]
feed $x = [7, 8]
feed $flag = [false, false]
run
print $y
# CHECK-NEXT: $y: f32[2] = [7, 3]
