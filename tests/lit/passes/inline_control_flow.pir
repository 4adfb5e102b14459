# The pipeline on a replicated program whose callees hold an exchange block, a
# collective, a by-reference update, a conditional and a nested call: the
# bodies land in main with the exchange and the conditional intact, and every
# pass prints what the program prints without passes.
# RUN: %pir opt %s --passes=inline,fold-constants,decompose-sum,dce --verify-each | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=inline --verify-each | diff %t.plain -
# RUN: %pir run %s --passes=inline,fold-constants,decompose-sum,dce --verify-each | diff %t.plain -
# RUN: FileCheck %s --check-prefix=VALUES < %t.plain
ir {replication = 2}
h2d $x : f32[2]
d2h $y : f32[2]
graph @io(%w: &f32[2]) -> (f32[2]) {
  exchange {
    %a = host_load $x
  }
  %s = replicated_all_reduce %a
  accumulate_ %w, %s
  %u = add %s, %w
  return %u
}
graph @sel(%a: f32[2]) -> (f32[2]) {
  %b = neg %a
  return %b
}
graph @branchy(%c: bool[], %a: f32[2]) -> (f32[2]) {
  %r = conditional %c, @sel(%a), @sel(%a)
  %q = call @sel(%r)
  return %q
}
main {
  var %w : f32[2] = [1, 2]
  const %t : bool[] = true
  %y = call @io(%w)
  %z = call @branchy(%t, %y)
  %z2 = call @branchy(true, %y)
  host_store $y, %z
}
feed $x = [[1, 2], [3, 4]]
run
print $y, %w, %z2
# CHECK-NOT:  graph @io
# CHECK-NOT:  graph @branchy
# CHECK:      graph @sel(%a: f32[2]) -> (f32[2]) {
# CHECK:      main {
# CHECK-NEXT:   var %w : f32[2] = [1, 2]
# CHECK-NEXT:   const %t : bool[] = true
# CHECK-NEXT:   exchange {
# CHECK-NEXT:     %a = host_load $x : f32[2]
# CHECK-NEXT:   }
# CHECK-NEXT:   %s = replicated_all_reduce %a : f32[2]
# CHECK-NEXT:   accumulate_ %w, %s
# CHECK-NEXT:   %y = add %s, %w : f32[2]
# CHECK-NEXT:   %r = conditional %t, @sel(%y), @sel(%y) : f32[2]
# CHECK-NEXT:   %z = neg %r : f32[2]
# CHECK-NEXT:   const [[C:%[0-9a-z.]+]] : bool[] = true
# CHECK-NEXT:   [[R:%[0-9a-z.]+]] = conditional [[C]], @sel(%y), @sel(%y) : f32[2]
# CHECK-NEXT:   %z2 = neg [[R]] : f32[2]
# CHECK-NEXT:   host_store $y, %z
# CHECK-NEXT: }
# VALUES:      $y: f32[2,2] = {{\[\[}}9, 14], [9, 14]]
# VALUES-NEXT: %w: f32[2] = [5, 8]
# VALUES-NEXT: %z2: f32[2,2] = {{\[\[}}9, 14], [9, 14]]
