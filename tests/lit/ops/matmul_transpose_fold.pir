# A matmul operand that is a `transpose` of the last two axes is read in place with
# the GEMM's transpose flag (issue 12): `in0^T` / `in1^T` in the disassembly. The
# transpose emits no code when nothing else needs its result; it is still computed
# when it is read by another op, returned, or in main (main's values stay printable).
# An in-place write between the transpose and the matmul stops the fold. Values are
# NumPy's (i32 wraps as `mul`/`add` do).
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# RUN: %pir run %s | FileCheck %s
graph @folded(%a: f32[3,2], %b: f32[3,4], %c: f32[4,4], %p: f64[2,3,2], %q: i32[2,2], %h: f16[2,3]) -> (f32[2,4], f32[4,4], f64[2,2,2], i32[2,2], f16[3,3]) {
  %at = transpose %a
  %x = matmul %at, %b
  %ct = transpose %c {perm = [1, 0]}
  %y = matmul %ct, %ct
  %pt = transpose %p {perm = [0, 2, 1]}
  %z = matmul %pt, %p
  %qt = transpose %q {perm = [-1, -2]}
  %w = matmul %q, %qt
  %ht = transpose %h
  %v = matmul %ht, %h
  return %x, %y, %z, %w, %v
}
# CODE-LABEL: @folded
# CODE-NOT: transpose
# CODE: kernel matmul k{{[0-9]+}} in0^T s0(%a), s1(%b) -> {{.*}}(%x)
# CODE-NEXT: kernel matmul k{{[0-9]+}} in0^T in1^T s2(%c), s2(%c) -> {{.*}}(%y)
# CODE-NEXT: kernel matmul k{{[0-9]+}} in0^T s3(%p), s3(%p) -> {{.*}}(%z)
# CODE-NEXT: kernel matmul k{{[0-9]+}} in1^T s4(%q), s4(%q) -> {{.*}}(%w)
# CODE-NEXT: kernel matmul k{{[0-9]+}} in0^T s5(%h), s5(%h) -> {{.*}}(%v)
# CODE-NEXT: return
graph @kept(%a: &f32[2,2], %b: f32[2,2]) -> (f32[2,2], f32[2,2], f32[2,2]) {
  %at = transpose %a
  %e = exp %at
  %bt = transpose %b
  %y = matmul %at, %bt
  %at2 = transpose %a
  scaled_add_ %a, %b {b = 1}
  %z = matmul %at2, %b
  return %y, %z, %bt
}
# CODE-LABEL: @kept
# CODE: kernel transpose {{.*}}s0(%a) -> {{.*}}(%at)
# CODE: kernel transpose {{.*}}s1(%b) -> {{.*}}(%bt)
# CODE: kernel matmul k{{[0-9]+}} in0^T in1^T s0(%a), s1(%b) -> {{.*}}(%y)
# CODE: kernel transpose {{.*}}s0(%a) -> {{.*}}(%at2)
# CODE: kernel scaled_add_
# CODE: kernel matmul k{{[0-9]+}} s{{[0-9]+}}(%at2), s1(%b) -> {{.*}}(%z)
# A transpose no matmul reads is not the fold's to remove (dce's business).
graph @unread(%a: f32[2,3]) -> () {
  %t = transpose %a
  return
}
# CODE-LABEL: @unread
# CODE: kernel transpose {{.*}}s0(%a) -> {{.*}}(%t)
# CODE-LABEL: @main
# CODE: kernel transpose {{.*}}(%a) -> {{.*}}(%mt)
# CODE-NEXT: kernel matmul k{{[0-9]+}} in0^T s{{[0-9]+}}(%a), s{{[0-9]+}}(%b) -> {{.*}}(%m)
main {
  const %a : f32[3,2] = [[1, 2], [3, 4], [5, 6]]
  const %b : f32[3,4] = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]
  const %c : f32[4,4] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
  const %p : f64[2,3,2] = [[[1, 2], [3, 4], [5, 6]], [[0.5, -1], [2, 0], [1, 1]]]
  const %q : i32[2,2] = [[2147483647, 2], [3, 4]]
  const %h : f16[2,3] = [[1, 2, 0.5], [3, -1, 0.25]]
  %x, %y, %z, %w, %fv = call @folded(%a, %b, %c, %p, %q, %h)
  var %v : f32[2,2] = [[1, 2], [3, 4]]
  const %u : f32[2,2] = [[1, 1], [0, 1]]
  %ky, %kz, %kbt = call @kept(%v, %u)
  %mt = transpose %a
  %m = matmul %mt, %b
}
run
print %x
print %y
print %z
print %w
print %fv
print %ky
print %kz
print %kbt
print %m
print %mt
# CHECK: %x: f32[2,4] = {{\[}}[1, 3, 5, 9], [2, 4, 6, 12]]
# CHECK-NEXT: %y: f32[4,4] = {{\[}}[90, 202, 314, 426], [100, 228, 356, 484], [110, 254, 398, 542], [120, 280, 440, 600]]
# CHECK-NEXT: %z: f64[2,2,2] = {{\[\[\[}}35, 44], [44, 56]], {{\[\[}}5.25, 0.5], [0.5, 2]]]
# CHECK-NEXT: %w: i32[2,2] = {{\[}}[5, -2147483643], [-2147483643, 25]]
# CHECK-NEXT: %fv: f16[3,3] = {{\[\[}}10, -1, 1.25], [-1, 5, 0.75], [1.25, 0.75, 0.3125]]
# CHECK-NEXT: %ky: f32[2,2] = {{\[}}[4, 3], [6, 4]]
# CHECK-NEXT: %kz: f32[2,2] = {{\[}}[1, 4], [2, 6]]
# CHECK-NEXT: %kbt: f32[2,2] = {{\[}}[1, 0], [1, 1]]
# CHECK-NEXT: %m: f32[2,4] = {{\[}}[1, 3, 5, 9], [2, 4, 6, 12]]
# CHECK-NEXT: %mt: f32[2,3] = {{\[}}[1, 3, 5], [2, 4, 6]]
