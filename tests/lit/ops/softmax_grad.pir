# softmax_grad %y, %g and log_softmax_grad %y, %g are the gradients of softmax and
# log_softmax for x in one kernel, with the operations, roundings and summation order of
# the chains of ops autodiff emitted for them before: the same bits as those chains, in
# f32 and f64, along a contiguous axis (rows ending in a partial vector), a leading
# axis and a middle one.
# RUN: sed 's/DT/f32/g' %s > %t.f32.pir && %pir run %t.f32.pir | FileCheck %s
# RUN: sed 's/DT/f64/g' %s > %t.f64.pir && %pir run %t.f64.pir | FileCheck %s
# RUN: sed 's/DT/f32/g' %s > %t.nofuse.pir && %pir run --no-fuse %t.nofuse.pir | FileCheck %s
graph @differences(%x: DT[6,5,37], %g: DT[6,5,37]) -> (i32[]) {
  %y2 = softmax %x {axis = 2}
  %gy2 = mul %g, %y2
  %s2 = sum %gy2 {axis = 2, keepdims = true}
  %ys2 = mul %y2, %s2
  %old2 = sub %gy2, %ys2
  %new2 = softmax_grad %y2, %g {axis = -1}
  %y0 = softmax %x {axis = 0}
  %gy0 = mul %g, %y0
  %s0 = sum %gy0 {axis = 0, keepdims = true}
  %ys0 = mul %y0, %s0
  %old0 = sub %gy0, %ys0
  %new0 = softmax_grad %y0, %g {axis = 0}
  %l1 = log_softmax %x {axis = 1}
  %t1 = sum %g {axis = 1, keepdims = true}
  %p1 = exp %l1
  %pt1 = mul %p1, %t1
  %old1 = sub %g, %pt1
  %new1 = log_softmax_grad %l1, %g {axis = 1}
  %l3 = log_softmax %x {axis = 2}
  %t3 = sum %g {axis = 2, keepdims = true}
  %p3 = exp %l3
  %pt3 = mul %p3, %t3
  %old3 = sub %g, %pt3
  %new3 = log_softmax_grad %l3, %g
  %ne0 = not_equal %old2, %new2
  %ci0 = cast %ne0 {dtype = i32}
  %d0 = sum %ci0
  %ne1 = not_equal %old0, %new0
  %ci1 = cast %ne1 {dtype = i32}
  %d1 = sum %ci1
  %ne2 = not_equal %old1, %new1
  %ci2 = cast %ne2 {dtype = i32}
  %d2 = sum %ci2
  %ne3 = not_equal %old3, %new3
  %ci3 = cast %ne3 {dtype = i32}
  %d3 = sum %ci3
  %n01 = add %d0, %d1
  %n23 = add %d2, %d3
  %n = add %n01, %n23
  return %n
}
main {
  const %seed : u32[2] = [5, 6]
  %s0, %s1 = split_random_seed %seed
  %x = random_normal %s0 {shape = [6, 5, 37], std = 3, dtype = DT}
  %g = random_uniform %s1 {shape = [6, 5, 37], low = -2, high = 2, dtype = DT}
  %differ = call @differences(%x, %g)
}
run
print %differ
# CHECK: %differ: i32[] = 0

