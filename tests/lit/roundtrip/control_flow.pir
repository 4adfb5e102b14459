# Graphs print in definition order (a callee before its callers) with their
# parameter lists, by-reference marks and output lists; an omitted `-> (...)`
# is printed; calls, repeats and conditionals print their graph-call operands.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
graph @sq(%a: f32[2]) {
  %b = mul %a, %a
  return %b
}
graph @two(%a: f32[2], %w: &f32[2]) -> (f32[2], f32[2]) {
  %s = call @sq(%a)
  %t = add %s, %w
  return %s, %t
}
graph @body(%i: i32[], %acc: f32[2], %step: f32[2]) -> (i32[], f32[2]) {
  %i2 = add %i, 1
  %acc2 = add %acc, %step
  return %i2, %acc2
}
graph @then(%x: f32[2]) -> (f32[2]) {
  %y = neg %x
  return %y
}
graph @else(%x: f32[2]) -> (f32[2]) {
  return %x
}
graph @nothing() -> () {
  return
}
main {
  var %w : f32[2] = [1, 2]
  const %x : f32[2] = [3, 4]
  %p, %q = call @two(%x, %w)
  %n, %total = repeat @body(0, %x, %w) {count = 4}
  const %c : bool[] = true
  %z = conditional %c, @then(%p), @else(%q)
  call @nothing()
  %zero = repeat @body(0, %x, %w) {count = 0}
}
# CHECK:      graph @sq(%a: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   %b = mul %a, %a : f32[2]
# CHECK-NEXT:   return %b
# CHECK-NEXT: }
# CHECK-EMPTY:
# CHECK-NEXT: graph @two(%a: f32[2], %w: &f32[2]) -> (f32[2], f32[2]) {
# CHECK-NEXT:   %s = call @sq(%a) : f32[2]
# CHECK-NEXT:   %t = add %s, %w : f32[2]
# CHECK-NEXT:   return %s, %t
# CHECK-NEXT: }
# CHECK-EMPTY:
# CHECK-NEXT: graph @body(%i: i32[], %acc: f32[2], %step: f32[2]) -> (i32[], f32[2]) {
# CHECK-NEXT:   %i2 = add %i, 1 : i32[]
# CHECK:      graph @else(%x: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   return %x
# CHECK-NEXT: }
# CHECK-EMPTY:
# CHECK-NEXT: graph @nothing() -> () {
# CHECK-NEXT:   return
# CHECK-NEXT: }
# CHECK-EMPTY:
# CHECK-NEXT: main {
# CHECK-NEXT:   var %w : f32[2] = [1, 2]
# CHECK-NEXT:   const %x : f32[2] = [3, 4]
# CHECK-NEXT:   %p, %q = call @two(%x, %w) : f32[2], f32[2]
# CHECK-NEXT:   %n, %total = repeat @body(0, %x, %w) {count = 4} : i32[], f32[2]
# CHECK-NEXT:   const %c : bool[] = true
# CHECK-NEXT:   %z = conditional %c, @then(%p), @else(%q) : f32[2]
# CHECK-NEXT:   call @nothing()
# The second output of @body was left unnamed: the printer names it.
# CHECK-NEXT:   %zero, %[[GEN:[A-Za-z0-9_.]+]] = repeat @body(0, %x, %w) {count = 0} : i32[], f32[2]
# CHECK-NEXT: }
