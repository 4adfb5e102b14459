# A call's returns are computed directly in the caller's result buffers (no copy at
# return) when they are arena values returned once; the same callee then run by a
# `repeat` computes in its own frame again (its returns are the carry). Results must
# be those of copying: two calls of one callee keep distinct results, a value returned
# twice, a returned param and a returned view are copied, and both branches of a
# conditional and a call nested in a call land where they should.
# RUN: %pir run %s | FileCheck %s
graph @f(%x: f32[3], %y: f32[3]) -> (f32[3], f32[3]) {
  %a = add %x, 1
  %b = mul %a, 2
  return %a, %b
}
graph @twice(%x: f32[3]) -> (f32[3], f32[3], f32[3]) {
  %s = sqrt %x
  return %s, %s, %x
}
graph @view(%x: f32[2,3]) -> (f32[3,2], f32[2,3]) {
  %c = add %x, 0
  %t = transpose_ %c
  mul_ %t, 10
  return %t, %c
}
graph @outer(%x: f32[3]) -> (f32[3], f32[3]) {
  %p, %q = call @f(%x, %x)
  %r = add %q, %p
  return %r, %p
}
graph @pick(%x: f32[3]) -> (f32[3]) {
  %y = neg %x
  return %y
}
graph @keep(%x: f32[3]) -> (f32[3]) {
  return %x
}
main {
  const %one : f32[3] = [1, 2, 3]
  %a1, %b1 = call @f(%one, %one)
  %a2, %b2 = call @f(%b1, %one)
  %a3, %b3 = repeat @f(%one, %one) {count = 3}
  %a4, %b4 = call @f(%a3, %one)
  %s1, %s2, %x1 = call @twice([4, 9, 16])
  %t, %c = call @view([[1, 2, 3], [4, 5, 6]])
  %r, %p = call @outer(%one)
  const %yes : bool[] = 1
  const %no : bool[] = 0
  %n1 = conditional %yes, @pick(%one), @keep(%one)
  %n2 = conditional %no, @pick(%one), @keep(%one)
}
run
print %a1
print %b1
print %a2
print %b2
print %a3
print %b3
print %a4
print %b4
print %s1
print %s2
print %x1
print %t
print %c
print %r
print %p
print %n1
print %n2
# CHECK: %a1: f32[3] = [2, 3, 4]
# CHECK-NEXT: %b1: f32[3] = [4, 6, 8]
# CHECK-NEXT: %a2: f32[3] = [5, 7, 9]
# CHECK-NEXT: %b2: f32[3] = [10, 14, 18]
# CHECK-NEXT: %a3: f32[3] = [4, 5, 6]
# CHECK-NEXT: %b3: f32[3] = [8, 10, 12]
# CHECK-NEXT: %a4: f32[3] = [5, 6, 7]
# CHECK-NEXT: %b4: f32[3] = [10, 12, 14]
# CHECK-NEXT: %s1: f32[3] = [2, 3, 4]
# CHECK-NEXT: %s2: f32[3] = [2, 3, 4]
# CHECK-NEXT: %x1: f32[3] = [4, 9, 16]
# CHECK-NEXT: %t: f32[3,2] = {{\[\[}}10, 40], [20, 50], [30, 60]]
# CHECK-NEXT: %c: f32[2,3] = {{\[\[}}10, 20, 30], [40, 50, 60]]
# CHECK-NEXT: %r: f32[3] = [6, 9, 12]
# CHECK-NEXT: %p: f32[3] = [2, 3, 4]
# CHECK-NEXT: %n1: f32[3] = [-1, -2, -3]
# CHECK-NEXT: %n2: f32[3] = [1, 2, 3]
