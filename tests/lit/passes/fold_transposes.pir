# fold-transposes: a matmul operand that is a `transpose` of the last two axes
# becomes the transpose's operand with the matmul's transpose flag
# (transpose_a / transpose_b). A subgraph's transpose that only folded matmuls
# read goes; one read by another op, returned, or in main stays; an in-place
# write between the transpose and the matmul stops the fold. The session runs
# this pass on what it compiles, so the values are the same with or without it.
# RUN: %pir opt %s --passes=fold-transposes | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=fold-transposes --verify-each > %t.folded
# RUN: diff %t.plain %t.folded
# RUN: FileCheck %s --check-prefix=VALUES < %t.plain
# The flags print, and the printed program reads back as itself.
# RUN: %pir opt %s --passes=fold-transposes -o %t.pir
# RUN: %pir opt %t.pir -o %t.again.pir
# RUN: diff %t.pir %t.again.pir
graph @f(%a: f32[3,2], %b: f32[3,4], %c: &f32[2,2]) -> (f32[2,4], f32[2,2], f32[2,2]) {
  %at = transpose %a
  %x = matmul %at, %b
  %ct = transpose %c {perm = [-1, -2]}
  %y = matmul %ct, %ct
  %ct2 = transpose %c
  scaled_add_ %c, %c {b = 1}
  %z = matmul %c, %ct2
  return %x, %y, %ct
}
# CHECK-LABEL: graph @f(
# CHECK-NEXT: %x = matmul %a, %b {transpose_a = true} : f32[2,4]
# CHECK-NEXT: %ct = transpose %c {perm = [-1, -2]} : f32[2,2]
# CHECK-NEXT: %y = matmul %c, %c {transpose_a = true, transpose_b = true} : f32[2,2]
# CHECK-NEXT: %ct2 = transpose %c : f32[2,2]
# CHECK-NEXT: scaled_add_ %c, %c
# CHECK-NEXT: %z = matmul %c, %ct2 : f32[2,2]
# The gradient of a matmul that reads its operands transposed.
graph @g(%a: f32[3,2], %b: f32[4,3]) -> (f32[2,4]) {
  %x = matmul %a, %b {transpose_a = true, transpose_b = true}
  return %x
}
autodiff @g -> @g_grad
# CHECK-LABEL: main {
# CHECK: %mt = transpose %a : f32[2,3]
# CHECK-NEXT: %m = matmul %a, %b {transpose_a = true} : f32[2,4]
main {
  const %a : f32[3,2] = [[1, 2], [3, 4], [5, 6]]
  const %b : f32[3,4] = [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]]
  var %c : f32[2,2] = [[1, 2], [3, 4]]
  %x, %y, %ct = call @f(%a, %b, %c)
  %mt = transpose %a
  %m = matmul %mt, %b
  %bt = transpose %b
  const %up : f32[2,4] = [[1, 0, 2, 0], [0, 1, 0, 3]]
  %gx = call @g(%a, %bt) as fwd
  %da, %db = call @g_grad(%up) using fwd
}
run
print %x
print %y
print %c
print %m
print %gx
print %da
print %db
# VALUES: %x: f32[2,4] = {{\[}}[1, 3, 5, 9], [2, 4, 6, 12]]
# VALUES-NEXT: %y: f32[2,2] = {{\[}}[7, 15], [10, 22]]
# VALUES-NEXT: %c: f32[2,2] = {{\[}}[2, 4], [6, 8]]
# VALUES-NEXT: %m: f32[2,4] = {{\[}}[1, 3, 5, 9], [2, 4, 6, 12]]
# VALUES-NEXT: %gx: f32[2,4] = {{\[}}[1, 3, 5, 9], [2, 4, 6, 12]]
# VALUES-NEXT: %da: f32[3,2] = {{\[}}[1, 3], [0, 4], [2, 3]]
# VALUES-NEXT: %db: f32[4,3] = {{\[}}[1, 3, 5], [2, 4, 6], [2, 6, 10], [6, 12, 18]]
