# RUN: %pir run %s | FileCheck %s
# Gradients of pad (each element gets the sum over the outputs it fed: reflect
# [2, 1] of [1, 2, 3] reads x0 once, x1 three times, x2 twice), tile (summed over
# the copies) and trilu (the kept triangle).
graph @f(%x: f32[3], %m: f32[2,2]) -> (f32[]) {
  %p = pad %x {pads = [2, 1], mode = reflect}
  %t = tile %p {repeats = [2]}
  %s = sum %t
  %u = trilu %m
  %s2 = sum %u
  %r = add %s, %s2
  return %r
}
autodiff @f -> @df {grads_required = [%x, %m]}
main {
  const %x : f32[3] = [1, 2, 3]
  const %m : f32[2,2] = [[1, 2], [3, 4]]
  %r = call @f(%x, %m) as fwd
  %dx, %dm = call @df(1.0) using fwd
}
run
print %dx, %dm
# CHECK: %dx: f32[3] = [2, 6, 4]
# CHECK-NEXT: %dm: f32[2,2] = {{\[\[}}1, 1], [0, 1]]
