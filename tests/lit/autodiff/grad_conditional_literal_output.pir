# A conditional branch that returns a literal for an output: the literal is a
# constant, so no gradient flows back from it (found by pir_fuzz: autodiff
# dereferenced the literal as a value and crashed).
# RUN: %pir run %s | FileCheck %s
graph @then(%a: f32[3], %b: f32[3]) -> (f32[3], f32[]) {
  %c = mul %a, %b
  return %c, 2.5
}
graph @else(%a: f32[3], %b: f32[3]) -> (f32[3], f32[]) {
  %e = add %a, %b
  %s = sum %e
  return %e, %s
}
graph @f(%x: f32[3], %w: f32[3], %k: bool[]) -> (f32[3], f32[]) {
  %y, %s = conditional %k, @then(%x, %w), @else(%w, %x)
  return %y, %s
}
autodiff @f -> @f_grad
main {
  const %x : f32[3] = [1, 2, 3]
  const %w : f32[3] = [4, 5, 6]
  const %up.y : f32[3] = [1, 0.5, 2]
  const %up.s : f32[] = 3
  %y.t, %s.t = call @f(%x, %w, true) as taken
  %dx.t, %dw.t = call @f_grad(%up.y, %up.s) using taken
  %y.f, %s.f = call @f(%x, %w, false) as other
  %dx.f, %dw.f = call @f_grad(%up.y, %up.s) using other
}
run
print %s.t, %dx.t, %dw.t, %s.f, %dx.f, %dw.f
# Then: y = x * w and s = 2.5, so dx = up.y * w, dw = up.y * x.
# CHECK:      %s.t: f32[] = 2.5
# CHECK-NEXT: %dx.t: f32[3] = [4, 2.5, 12]
# CHECK-NEXT: %dw.t: f32[3] = [1, 1, 6]
# Else: y = w + x and s = sum(w + x), so dx = dw = up.y + up.s.
# CHECK-NEXT: %s.f: f32[] = 21
# CHECK-NEXT: %dx.f: f32[3] = [4, 3.5, 5]
# CHECK-NEXT: %dw.f: f32[3] = [4, 3.5, 5]
