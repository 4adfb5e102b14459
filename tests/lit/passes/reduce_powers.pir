# reduce-powers: `pow x, c` with a constant exponent (a literal or a scalar `const`) of
# 2, 3, -1 or 1 becomes mul, two muls, reciprocal or identity; other exponents, a cube
# in f16, a pow whose exponent broadcasts x to a larger result, and main's pows stay.
# The session runs this pass on what it compiles: sessions see vector loops, and x^2
# and 1/x are correctly rounded (the C library's pow is within an ulp), so the values
# equal those of the plain products.
# RUN: %pir opt %s --passes=reduce-powers --verify-each | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# CODE: @f
# CODE-NOT: {{kernel +pow }}
# CODE: fused [mul, mul] k{{[0-9]+}} s0(%x) -> s{{[0-9]+}}(%cube)
# CODE-NOT: {{kernel +pow }}
# CODE: @kept
graph @f(%x: f32[6]) -> (f32[6], f32[6], f32[6], f32[6], f32[6], f32[6]) {
  const %two : f32[] = 2
  %sq = pow %x, 2
  %cube = pow %x, 3.0
  %inv = pow %x, -1
  %one = pow %x, 1
  %sqc = pow %x, %two
  %mul = mul %x, %x
  return %sq, %cube, %inv, %one, %sqc, %mul
}
# CHECK-LABEL: graph @f(
# CHECK-NOT: pow
# CHECK: %sq = mul %x, %x : f32[6]
# CHECK: %[[X2:[0-9a-z.]+]] = mul %x, %x : f32[6]
# CHECK-NEXT: %cube = mul %[[X2]], %x : f32[6]
# CHECK: %inv = reciprocal %x : f32[6]
# CHECK: %one = identity %x : f32[6]
# CHECK: %sqc = mul %x, %x : f32[6]
# CHECK: return %sq, %cube, %inv, %one, %sqc, %mul
graph @kept(%x: f32[6], %h: f16[6], %s: f32[]) -> (f32[6], f32[6], f16[6], f32[6]) {
  %root = pow %x, 0.5
  %y = pow %x, %x
  %hc = pow %h, 3
  %b = pow %s, [2, 2, 2, 2, 2, 2]
  return %root, %y, %hc, %b
}
# CHECK-LABEL: graph @kept(
# CHECK: pow %x, 0.5
# CHECK: pow %x, %x
# CHECK: pow %h, 3
# CHECK: pow %s,
main {
  const %x : f32[6] = [-0.0, 3.0, 1e20, inf, nan, 0.1]
  %sq, %cube, %inv, %one, %sqc, %mul = call @f(%x)
  %kept = pow %x, 2
}
run
print %sq
print %cube
print %inv
print %one
print %sqc
print %mul
print %kept
# VALUES: %sq: f32[6] = [0, 9, inf, inf, nan, 0.010000001]
# VALUES: %cube: f32[6] = [-0, 27, inf, inf, nan, 0.001]
# VALUES: %inv: f32[6] = [-inf, 0.33333334, 1e-20, 0, nan, 10]
# VALUES: %one: f32[6] = [-0, 3, 1e+20, inf, nan, 0.1]
# VALUES: %sqc: f32[6] = [0, 9, inf, inf, nan, 0.010000001]
# VALUES: %mul: f32[6] = [0, 9, inf, inf, nan, 0.010000001]
# VALUES: %kept: f32[6] = [0, 9, inf, inf, nan, 0.010000001]
