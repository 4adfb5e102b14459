# gelu_grad %x, %g is g * gelu'(x) (the tanh form) in one pass: it agrees with the chain
# of ops of that derivative, g * ((1 + t)/2 + x/2 (1 - t^2) u'), t = tanh(u), to within
# 1e-6 |g| (the chain's own rounding, about an ulp of 1 per op), in f32 and f64, over a
# length that ends in a partial vector; a wrong term would differ by 1e-2 or more.
# RUN: sed 's/DT/f32/' %s > %t.f32.pir && %pir run %t.f32.pir | FileCheck %s
# RUN: sed 's/DT/f64/' %s > %t.f64.pir && %pir run %t.f64.pir | FileCheck %s
# RUN: sed 's/DT/f32/' %s > %t.nofuse.pir && %pir run --no-fuse %t.nofuse.pir | FileCheck %s
main {
  const %seed : u32[2] = [3, 4]
  %s0, %s1 = split_random_seed %seed
  %x = random_uniform %s0 {shape = [1003], low = -12, high = 12, dtype = DT}
  %g = random_uniform %s1 {shape = [1003], low = -2, high = 2, dtype = DT}
  %x2 = mul %x, %x
  %i0 = mul %x2, 0.044715
  %inner = add %i0, 1
  %u0 = mul %x, %inner
  %u = mul %u0, 0.7978845608028654
  %t = tanh %u
  %l0 = add %t, 1
  %left = mul %l0, 0.5
  %tt = mul %t, %t
  %sech2 = sub 1, %tt
  %d0 = mul %x2, 0.134145
  %d1 = add %d0, 1
  %du = mul %d1, 0.7978845608028654
  %xh = mul %x, 0.5
  %sd = mul %sech2, %du
  %right = mul %xh, %sd
  %d = add %left, %right
  %old = mul %g, %d
  %new = gelu_grad %x, %g
  %diff = sub %old, %new
  %err = abs %diff
  %ga = abs %g
  %tol = mul %ga, 1e-6
  %far = greater %err, %tol
  %ci = cast %far {dtype = i32}
  %differ = sum %ci
}
run
print %differ
# CHECK: %differ: i32[] = 0
