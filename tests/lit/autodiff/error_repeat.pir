# repeat has no gradient (ops.md, as in PopXL): on a required path it is an error that
# says why and what to do instead.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @body(%a: f32[3]) -> (f32[3]) {
  %b = sin %a
  return %b
}
graph @f(%x: f32[3]) -> (f32[3]) {
  %y = repeat @body(%x) {count = 3}
  return %y
}
autodiff @f -> @f_grad
# CHECK: error_repeat.pir:9:8: error: autodiff: repeat has no gradient (as in PopXL), and it is on the path from %x to %y; differentiate the body (autodiff @body) and call its gradient once per iteration
