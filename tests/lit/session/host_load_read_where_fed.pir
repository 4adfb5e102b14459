# A host_load whose value nothing writes reads its batch where the stream holds it
# (`pir disasm`: "read where fed"), also through a callee's by-value parameter; one
# whose value an op or a callee (by reference) writes in place, that is returned, that
# is not a whole number of 64-byte lines, or that main keeps for `print`, is copied. Writes never reach the fed data: a second run loads the same
# batches and prints the same values.
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 2}
h2d $x : f32[16]
h2d $w : f32[16]
h2d $small : f32[3]
h2d $v : f32[16]
d2h $y : f32[16]
d2h $vs : f32[16]
graph @bump(%p: &f32[16]) -> () {
  mul_ %p, 3
  return
}
graph @double(%p: f32[16]) -> (f32[16]) {
  %d = add %p, %p
  return %d
}
graph @step(%acc: f32[16]) -> (f32[16], f32[16], f32[3]) {
  %x = host_load $x
  %w = host_load $w
  mul_ %w, 2
  %s = add %acc, %x
  %t = add %s, %w
  host_store $y, %t
  %r = host_load $x
  %q = host_load $small
  %q2 = add %q, 1
  %u = host_load $v
  %du = call @double(%u)
  %k = host_load $v
  call @bump(%k)
  %vs = add %du, %k
  host_store $vs, %vs
  return %t, %r, %q2
}
main {
  %z = init {shape = [16], dtype = f32}
  %a, %b, %c = call @step(%z)
  %d, %e, %f = call @step(%a)
  %m = host_load $x
}
# CODE: @step
# CODE: host_load $x (read where fed) -> s{{[0-9]+}}(%x)
# CODE-NEXT: host_load $w -> s{{[0-9]+}}(%w)
# CODE: host_load $x -> s{{[0-9]+}}(%r)
# CODE-NEXT: host_load $small -> s{{[0-9]+}}(%q)
# CODE: host_load $v (read where fed) -> s{{[0-9]+}}(%u)
# CODE: host_load $v -> s{{[0-9]+}}(%k)
# CODE: @main
# CODE: host_load $x -> s{{[0-9]+}}(%m)
feed $x = [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]]
feed $w = [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]]
feed $small = [[1, 2, 3], [4, 5, 6]]
feed $v = [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]]
run
print $y, %e, %f, %m, $vs
run
print $y, %e, %f, %m, $vs
# CHECK: $y: f32[2,16] = {{\[\[}}3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18], [8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38]]
# CHECK-NEXT: %e: f32[16] = [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
# CHECK-NEXT: %f: f32[3] = [5, 6, 7]
# CHECK-NEXT: %m: f32[16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
# CHECK-NEXT: $vs: f32[2,16] = {{\[\[}}8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8], [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]]
# CHECK-NEXT: $y: f32[2,16] = {{\[\[}}3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18], [8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38]]
# CHECK-NEXT: %e: f32[16] = [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
# CHECK-NEXT: %f: f32[3] = [5, 6, 7]
# CHECK-NEXT: %m: f32[16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
# CHECK-NEXT: $vs: f32[2,16] = {{\[\[}}8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8], [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]]
