# A result may take the buffer of an operand that dies at its op (docs/decisions.md
# "Memory planning"), but a variadic minimum or maximum folds its operands pairwise
# into the result: had %m taken %c2's buffer, its first fold (min of %a and %b) would
# overwrite %c2 before the second fold reads it. Only operands 0 and 1 are taken.
# RUN: %pir run --no-fuse %s | FileCheck %s
# RUN: %pir run %s | FileCheck %s
graph @g(%a: f32[3], %b: f32[3], %c: f32[3]) -> (f32[3]) {
  %c2 = mul %c, 2.0
  %m = minimum %a, %b, %c2
  %r = add %m, 1.0
  return %r
}
main {
  const %a : f32[3] = [5, 6, 7]
  const %b : f32[3] = [4, 9, 8]
  const %c : f32[3] = [1, 10, -3]
  %r = call @g(%a, %b, %c)
}
run
print %r
# CHECK: %r: f32[3] = [3, 7, -5]
