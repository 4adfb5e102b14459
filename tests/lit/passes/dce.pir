# dce: removes ops whose results are never used and that have no side effect,
# in every graph. Kept: IO, print_tensor, collectives, calls of graphs that have
# a side effect, in-place writes whose target is read later or seen outside
# (variables, by-reference inputs), and main-graph ops that bind a name written
# in the source (a session command may print it). An in-place write to a local
# tensor that nothing reads afterwards is dead, and so is the op that made it.
# RUN: %pir opt %s --passes=dce | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=dce --verify-each > %t.dce
# RUN: diff %t.plain %t.dce
# RUN: FileCheck %s --check-prefix=VALUES < %t.dce

h2d $x : f32[2]
d2h $y : f32[2]

graph @noisy(%a: f32[2]) -> (f32[2]) {
  %shown = print_tensor %a {title = "a"}
  %sq = mul %a, %a
  return %sq
}
graph @pure(%a: f32[2]) -> (f32[2]) {
  %e = exp %a
  return %e
}
graph @f(%a: f32[2], %w: &f32[2], %v: f32[2]) -> (f32[2]) {
  %dead = exp %a
  %dead2 = neg %dead
  %t = neg %a
  relu_ %t
  add_ %v, 1
  add_ %w, 1
  %unused = call @pure(%a)
  %loud = call @noisy(%a)
  %u = mul %a, %a
  return %u
}
main {
  var %w : f32[2] = [1, -2]
  %x = host_load $x
  %named = exp %x
  exp %x
  neg %named
  %y = call @f(%x, %w, %x)
  host_store $y, %y
}
feed $x = [1, 2]
run
print $y, %w, %named

# CHECK:      graph @f(%a: f32[2], %w: &f32[2], %v: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   add_ %w, 1
# CHECK-NEXT:   %loud = call @noisy(%a) : f32[2]
# CHECK-NEXT:   %u = mul %a, %a : f32[2]
# CHECK-NEXT:   return %u
# CHECK-NEXT: }
# CHECK:      main {
# CHECK-NEXT:   var %w : f32[2] = [1, -2]
# CHECK-NEXT:   %x = host_load $x : f32[2]
# CHECK-NEXT:   %named = exp %x : f32[2]
# CHECK-NEXT:   %y = call @f(%x, %w, %x) : f32[2]
# CHECK-NEXT:   host_store $y, %y
# CHECK-NEXT: }

# VALUES:      a: [1, 2]
# VALUES-NEXT: $y: f32[2] = [1, 4]
# VALUES-NEXT: %w: f32[2] = [2, -1]
# VALUES-NEXT: %named: f32[2] = [2.7182817, 7.389056]
