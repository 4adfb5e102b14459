graph @f(%x: f32[2,4,9,30], %w: f32[6,2,3,3], %v: f32[3,6,2,4]) -> (f32[]) {
  %y = conv %x, %w {stride = [2, 1], padding = [1, 4, 0, 2], dilation = [1, 2], groups = 2}
  %z = conv %y, %v {stride = [1, 3], padding = [0, 1, 1, 0]}
  %s = sum %z
  return %s
}
autodiff @f -> @df {grads_required = [%x, %w, %v]}
main {
  const %a : f32[] = 0.5
  const %b : f32[] = -0.25
  %x = broadcast %a {shape = [2, 4, 9, 30]}
  %w = broadcast %b {shape = [6, 2, 3, 3]}
  %v = broadcast %a {shape = [3, 6, 2, 4]}
  %s = call @f(%x, %w, %v) as fwd
  %dx, %dw, %dv = call @df(1.0) using fwd
  %t = sum %dx
  %u = sum %dw
}
run
print %s, %t, %u
