# A callee that is also a repeat body cannot take new outputs (its outputs are carried
# into its inputs), so the differentiated graph's call is redirected to a copy @body_fwd,
# which is differentiated and stitched instead; the repeat keeps @body.
# d/dx sum(tanh(x)^2 * w): 2 tanh(x) (1 - tanh(x)^2) * w, at x = [0.5, -1, 2], w = [1, 2, -1]
# = [0.72686198, -1.2794, -0.13621869]; the repeat still runs @body twice.
# RUN: %pir run %s > %t && %python %S/Inputs/check_grads.py %s %t
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
graph @body(%a: f32[3], %w: f32[3]) -> (f32[3]) {
  %t = tanh %a
  %u = mul %t, %t
  %v = mul %u, %w
  return %v
}
graph @f(%x: f32[3], %w: f32[3]) -> (f32[]) {
  %v = call @body(%x, %w)
  %s = sum %v
  return %s
}
autodiff @f -> @f_grad {grads_required = [%x]}
main {
  const %x : f32[3] = [0.5, -1, 2]
  const %w : f32[3] = [1, 2, -1]
  %r = repeat @body(%x, %w) {count = 2}
  %s = call @f(%x, %w) as site
  %dx = call @f_grad(1.0) using site
}
run
print %dx
# EXPECT: %dx: f32[3] = [0.72686198, -1.2794, -0.13621869]
# IR: graph @body(%a: f32[3], %w: f32[3]) -> (f32[3]) {
# IR: graph @body_fwd(%a: f32[3], %w: f32[3]) -> (f32[3], f32[3], f32[3]) {
# IR: graph @f(
# IR:   call @body_fwd(%x, %w)
# IR: graph @body_grad({{.*}} attributes {grad_of = @body_fwd,
# IR: main {
# IR:   repeat @body(%x, %w) {count = 2}
