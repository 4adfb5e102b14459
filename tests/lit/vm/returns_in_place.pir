# A graph's return computed in place (docs/decisions.md "Returns in place"): a call
# writes it directly into its own result buffer. A value whose buffer such a return
# took over at its op (a reshape of a fresh result, an elementwise op's operand) lives
# there too, so the reshape copies nothing. The values are the same through a call,
# a call of a call, a repeat (whose returns are the carry, in the body's arena) and a
# conditional.
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
# RUN: %pir run --no-fuse %s | FileCheck %s --check-prefix=VALUES
graph @flat(%x: f32[2,3], %s: f32[]) -> (f32[6], f32[2,3]) {
  %y = mul %x, %s
  %z = add %y, 1.0
  %r = reshape %z {shape = [6]}
  %t = transpose %x
  %u = transpose %t
  return %r, %u
}
graph @twice(%x: f32[2,3], %s: f32[]) -> (f32[2,3], f32[]) {
  %r, %u = call @flat(%x, %s)
  %b = reshape %r {shape = [2, 3]}
  %n = add %s, 1.0
  return %b, %n
}
main {
  const %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  const %two : f32[] = 2
  %r, %u = call @flat(%x, %two)
  %r2, %u2 = call @flat(%u, %two)
  %c, %n = repeat @twice(%x, %two) {count = 3}
  const %yes : bool[] = true
  %k, %ku = conditional %yes, @flat(%x, %two), @flat(%u, %two)
}
run
print %r, %r2, %c, %k
# CODE-LABEL: @flat
# CODE: %z: f32[2,3]  24 bytes  (in a call's result 0)
# CODE: %r: f32[6]  24 bytes  (a call's result 0)
# CODE: %u: f32[2,3]  24 bytes  (a call's result 1)
# CODE-LABEL: @twice
# CODE: %r: f32[6]  24 bytes  (in a call's result 0)
# CODE: %b: f32[2,3]  24 bytes  (a call's result 0)
# VALUES: %r: f32[6] = [3, 5, 7, 9, 11, 13]
# VALUES: %r2: f32[6] = [3, 5, 7, 9, 11, 13]
# VALUES: %c: f32[2,3] = {{\[\[}}41, 65, 89], [113, 137, 161]]
# VALUES: %k: f32[6] = [3, 5, 7, 9, 11, 13]
