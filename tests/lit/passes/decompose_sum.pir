# decompose-sum (PopXL decompose_sum): a sum of more than two contributions,
# written as a tree of `add`s of one type whose inner results feed only the
# next add (what a gradient accumulated over several consumers looks like),
# becomes a chain whose adds run as soon as their contributions exist, so that
# each contribution dies at once instead of living until the whole sum. The
# association of the sum is kept (results are bit-identical); an add never
# moves above an in-place write to what it reads.
# RUN: %pir opt %s --passes=decompose-sum | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=decompose-sum --verify-each > %t.decomposed
# RUN: diff %t.plain %t.decomposed
# RUN: FileCheck %s --check-prefix=VALUES < %t.decomposed

h2d $d : f32[2]
d2h $gx : f32[2]
d2h $gq : f32[2]

graph @grad(%d: f32[2], %x: f32[2]) -> (f32[2]) {
  %p1 = mul %d, %x
  %p2 = exp %d
  %t = sin %x
  %p3 = neg %d
  %u = cos %t
  %p4 = mul %u, %d
  %s1 = add %p1, %p2
  %s2 = add %s1, %p3
  %s = add %s2, %p4
  return %s
}
graph @pinned(%x: f32[2]) -> (f32[2]) {
  %q1 = exp %x
  %q2 = neg %x
  %q3 = sin %x
  mul_ %q1, 2
  %r1 = add %q1, %q2
  %r = add %r1, %q3
  return %r
}
main {
  var %x : f32[2] = [0.5, -1]
  %d = host_load $d
  %gx = call @grad(%d, %x)
  %gq = call @pinned(%x)
  %two = add %gx, %gq
  host_store $gx, %gx
  host_store $gq, %gq
}
feed $d = [1, 0.25]
run
print $gx, $gq, %two

# CHECK:      graph @grad(%d: f32[2], %x: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   %p1 = mul %d, %x : f32[2]
# CHECK-NEXT:   %p2 = exp %d : f32[2]
# CHECK-NEXT:   %s1 = add %p1, %p2 : f32[2]
# CHECK-NEXT:   %t = sin %x : f32[2]
# CHECK-NEXT:   %p3 = neg %d : f32[2]
# CHECK-NEXT:   %s2 = add %s1, %p3 : f32[2]
# CHECK-NEXT:   %u = cos %t : f32[2]
# CHECK-NEXT:   %p4 = mul %u, %d : f32[2]
# CHECK-NEXT:   %s = add %s2, %p4 : f32[2]
# CHECK-NEXT:   return %s
# CHECK:      graph @pinned(%x: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   %q1 = exp %x : f32[2]
# CHECK-NEXT:   %q2 = neg %x : f32[2]
# CHECK-NEXT:   %q3 = sin %x : f32[2]
# CHECK-NEXT:   mul_ %q1, 2
# CHECK-NEXT:   %r1 = add %q1, %q2 : f32[2]
# CHECK-NEXT:   %r = add %r1, %q3 : f32[2]
# CHECK:      main {
# CHECK:        %two = add %gx, %gq : f32[2]

# VALUES: $gx: f32[2] = [3.1055417, 0.95061713]
# VALUES-NEXT: $gq: f32[2] = [3.2768679, 0.89428794]
# VALUES-NEXT: %two: f32[2] = [6.3824096, 1.8449051]
