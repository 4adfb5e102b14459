# fold-broadcasts: an operand of an elementwise op of two or more operands that is a
# `broadcast` becomes the broadcast's operand when the op's operands still broadcast
# to the same shape without it. A subgraph's broadcast that only folded uses read
# goes; one read by a unary op, written in place, returned, or in main stays; an
# in-place write between the broadcast and the op stops the fold, and so does an
# operand whose removal would shrink the result (of two broadcast operands that
# cannot both go, the first does). The session runs this pass on what
# it compiles, so the values are the same with or without it.
# RUN: %pir opt %s --passes=fold-broadcasts | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=fold-broadcasts --verify-each > %t.folded
# RUN: diff %t.plain %t.folded
# RUN: FileCheck %s --check-prefix=VALUES < %t.plain
# Sessions compile through it: the product reads %s, and %b is never computed.
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# CODE: @f
# CODE-NEXT: slot s0 {{.*}}%s: f32[3]
# CODE-NOT: %b:
# CODE: 0000  kernel       mul k0 s0(%s), s1(%x) -> s{{[0-9]+}}(%y)
# The printed program reads back as itself.
# RUN: %pir opt %s --passes=fold-broadcasts -o %t.pir
# RUN: %pir opt %t.pir -o %t.again.pir
# RUN: diff %t.pir %t.again.pir
graph @f(%s: f32[3], %x: f32[2,3], %w: &f32[3]) -> (f32[2,3], f32[2,3], f32[2,3], f32[4,3], f32[2,3], f32[2,3], f32[2,3]) {
  %b = broadcast %s {shape = [2, 3]}
  %y = mul %b, %x
  %g = greater %x, 0.5
  %c = where %g, %b, %x
  %bn = broadcast %s {shape = [2, 3]}
  %n = neg %bn
  %u = add %bn, %x
  %bw = broadcast %w {shape = [2, 3]}
  scaled_add_ %w, %s {b = 1}
  %v = add %bw, %x
  %b4 = broadcast %s {shape = [4, 3]}
  %z = add %b4, %s
  %bt = broadcast %s {shape = [2, 3]}
  mul_ %bt, %x
  %r = broadcast %s {shape = [2, 3]}
  %q = sub %x, %r
  %e1 = broadcast %s {shape = [2, 3]}
  %e2 = broadcast %s {shape = [2, 3]}
  %two = add %e1, %e2
  return %y, %n, %v, %z, %bt, %r, %two
}
# CHECK-LABEL: graph @f(
# CHECK-NEXT: %y = mul %s, %x : f32[2,3]
# CHECK-NEXT: %g = greater %x, 0.5 : bool[2,3]
# CHECK-NEXT: %c = where %g, %s, %x : f32[2,3]
# CHECK-NEXT: %bn = broadcast %s {shape = [2, 3]} : f32[2,3]
# CHECK-NEXT: %n = neg %bn : f32[2,3]
# CHECK-NEXT: %u = add %s, %x : f32[2,3]
# CHECK-NEXT: %bw = broadcast %w {shape = [2, 3]} : f32[2,3]
# CHECK-NEXT: scaled_add_ %w, %s
# CHECK-NEXT: %v = add %bw, %x : f32[2,3]
# CHECK-NEXT: %b4 = broadcast %s {shape = [4, 3]} : f32[4,3]
# CHECK-NEXT: %z = add %b4, %s : f32[4,3]
# CHECK-NEXT: %bt = broadcast %s {shape = [2, 3]} : f32[2,3]
# CHECK-NEXT: mul_ %bt, %x
# CHECK-NEXT: %r = broadcast %s {shape = [2, 3]} : f32[2,3]
# CHECK-NEXT: %q = sub %x, %s : f32[2,3]
# CHECK-NEXT: %e2 = broadcast %s {shape = [2, 3]} : f32[2,3]
# CHECK-NEXT: %two = add %s, %e2 : f32[2,3]
# CHECK-LABEL: main {
# CHECK: %m = broadcast %s {shape = [2, 3]} : f32[2,3]
# CHECK-NEXT: %ms = add %s, %x : f32[2,3]
main {
  const %s : f32[3] = [1, 2, 3]
  const %x : f32[2,3] = [[1, 0, 1], [0, 1, 0]]
  var %w : f32[3] = [10, 20, 30]
  %y, %n, %v, %z, %bt, %r, %two = call @f(%s, %x, %w)
  %m = broadcast %s {shape = [2, 3]}
  %ms = add %m, %x
}
run
print %y, %n, %v, %z, %bt, %r, %two, %ms, %w
# VALUES: %y: f32[2,3] = {{\[\[}}1, 0, 3], [0, 2, 0]]
# VALUES-NEXT: %n: f32[2,3] = {{\[\[}}-1, -2, -3], [-1, -2, -3]]
# VALUES-NEXT: %v: f32[2,3] = {{\[\[}}11, 20, 31], [10, 21, 30]]
# VALUES-NEXT: %z: f32[4,3] = {{\[\[}}2, 4, 6], [2, 4, 6], [2, 4, 6], [2, 4, 6]]
# VALUES-NEXT: %bt: f32[2,3] = {{\[\[}}1, 0, 3], [0, 2, 0]]
# VALUES-NEXT: %r: f32[2,3] = {{\[\[}}1, 2, 3], [1, 2, 3]]
# VALUES-NEXT: %two: f32[2,3] = {{\[\[}}2, 4, 6], [2, 4, 6]]
# VALUES-NEXT: %ms: f32[2,3] = {{\[\[}}2, 2, 4], [1, 3, 3]]
# VALUES-NEXT: %w: f32[3] = [11, 22, 33]
