# conditional runs exactly one branch; the condition is bool[] or bool[1].
# RUN: %pir run %s | FileCheck %s
d2h $trace : i32[]
graph @pos(%x: f32[2]) -> (f32[2]) {
  %y = add %x, 100
  return %y
}
graph @neg(%x: f32[2]) -> (f32[2]) {
  %y = neg %x
  return %y
}
main {
  const %t : bool[] = true
  const %f : bool[1] = [false]
  const %v : f32[2] = [1, 2]
  %a = conditional %t, @pos(%v), @neg(%v)
  %b = conditional %f, @pos(%v), @neg(%v)
}
run
print %a, %b
# CHECK: %a: f32[2] = [101, 102]
# CHECK-NEXT: %b: f32[2] = [-1, -2]
