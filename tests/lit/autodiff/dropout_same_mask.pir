# dropout's gradient uses the forward mask: with the same seed, dx = g * mask / (1 - p),
# which is exactly dropout's output divided by its input, times g (every x is non-zero).
# %err is the largest difference (0: same mask); %kept counts kept elements (neither all
# nor none, so the test cannot pass with a trivial mask).
# RUN: %pir run %s | FileCheck %s
graph @f(%x: f32[4,5], %s: u32[2]) -> (f32[4,5]) {
  %y = dropout %x, %s {p = 0.5}
  return %y
}
autodiff @f -> @f_grad {grads_required = [%x]}
main {
  const %x : f32[4,5] = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]
  const %s : u32[2] = [7, 11]
  const %g : f32[4,5] = [[3, -1, 2, 5, 1], [1, 1, -2, 4, 6], [2, 2, 2, 2, 2], [-3, 1, 7, 1, 9]]
  %y = call @f(%x, %s) as fwd0
  %dx = call @f_grad(%g) using fwd0
  %r = div %y, %x
  %e = mul %r, %g
  %d = sub %dx, %e
  %a = abs %d
  %err = max %a
  %nz = not_equal %y, 0
  %k = cast %nz {dtype = f32}
  %kept = sum %k
}
run
print %err, %kept
# CHECK: %err: f32[] = 0
# CHECK-NEXT: %kept: f32[] = {{[1-9]|1[0-9]}}{{$}}
