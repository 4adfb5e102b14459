# A repeat count that leaves some of the num_host_transfers slots of a d2h stream
# unwritten warns (those slots keep the previous run's values); counts go through
# calls and repeat counts. A count that fills every slot, and stores under a
# conditional (not known statically), do not warn.
# RUN: %pir run %s 2>%t.err | FileCheck %s --check-prefix=OUT
# RUN: FileCheck %s < %t.err
# CHECK: {{.*}}unwritten_stream_slots.pir:34:3: warning: repeat: a run writes 3 of the 4 slots of d2h stream $y (num_host_transfers = 4); slot 3 keeps the previous run's values (zero before the first)
# CHECK-NEXT: {{^}}    repeat @step(%x) {count = 3}
# CHECK-NEXT: {{^}}    ^
# CHECK-NEXT: {{.*}}unwritten_stream_slots.pir:15:5: note: $y is declared here
# CHECK-NEXT: {{.*}}unwritten_stream_slots.pir:35:3: warning: call: a run writes 2 of the 4 slots of d2h stream $z (num_host_transfers = 4); slots 2..3 keep the previous run's values (zero before the first)
# CHECK-NOT: warning:
# OUT: $y: f32[4] = [1, 2, 3, 0]
ir {num_host_transfers = 4}
d2h $y : f32[]
d2h $z : f32[]
d2h $full : f32[]
graph @step(%x: &f32[]) -> () {
  add_ %x, 1
  host_store $y, %x
  return
}
graph @fill(%v: f32[]) -> () {
  host_store $full, %v
  return
}
graph @twice(%v: f32[]) -> () {
  host_store $z, %v
  host_store $z, %v
  return
}
main {
  var %x : f32[] = 0
  repeat @step(%x) {count = 3}
  call @twice(%x)
  repeat @fill(%x) {count = 4}
}
run
print $y
