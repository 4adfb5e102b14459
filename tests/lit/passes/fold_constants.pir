# fold-constants: an op whose operands are all constants (declared consts or
# literals) and that is pure and deterministic is evaluated, with the VM's own
# kernels, and replaced by a `const` of the same name; results all equal print
# as one scalar. Not folded: IO, random and collective ops, calls, in-place ops,
# ops whose result is written in place later, and ops that fail at run time
# (fold_constants_error.pir).
# RUN: %pir opt %s --passes=fold-constants | FileCheck %s
# RUN: %pir run %s > %t.plain
# RUN: %pir run %s --passes=fold-constants --verify-each > %t.folded
# RUN: diff %t.plain %t.folded
# RUN: FileCheck %s --check-prefix=VALUES < %t.folded

h2d $x : f32[2]
d2h $y : f32[2]

graph @scale(%a: f32[2]) -> (f32[2]) {
  const %two : f32[] = 2
  %half = div 1, %two
  %s = mul %a, %half
  return %s
}
main {
  const %a : f32[2] = [1, 2]
  const %b : f32[2] = [3, 4]
  %c = add %a, %b
  %d = mul %c, 2
  %z = sub %a, %a
  %i = cast %d {dtype = i32}
  const %sq : f32[2,2] = [[1, 2], [3, 4]]
  %m = matmul %sq, [[1, 0], [0, 1]]
  %sc = call @scale(%a)
  %copy = identity %a
  add_ %copy, 1
  %x = host_load $x
  %e = add %x, %d
  host_store $y, %e
}
feed $x = [0.5, 0.25]
run
print $y, %c, %d, %z, %i, %m, %sc, %copy

# CHECK:      graph @scale(%a: f32[2]) -> (f32[2]) {
# CHECK-NEXT:   const %two : f32[] = 2
# CHECK-NEXT:   const %half : f32[] = 0.5
# CHECK-NEXT:   %s = mul %a, %half : f32[2]
# CHECK:      main {
# CHECK-NEXT:   const %a : f32[2] = [1, 2]
# CHECK-NEXT:   const %b : f32[2] = [3, 4]
# CHECK-NEXT:   const %c : f32[2] = [4, 6]
# CHECK-NEXT:   const %d : f32[2] = [8, 12]
# CHECK-NEXT:   const %z : f32[2] = 0
# CHECK-NEXT:   const %i : i32[2] = [8, 12]
# CHECK-NEXT:   const %sq : f32[2,2] = {{\[\[}}1, 2], [3, 4]]
# CHECK-NEXT:   const %m : f32[2,2] = {{\[\[}}1, 2], [3, 4]]
# CHECK-NEXT:   %sc = call @scale(%a) : f32[2]
# CHECK-NEXT:   %copy = identity %a : f32[2]
# CHECK-NEXT:   add_ %copy, 1
# CHECK-NEXT:   %x = host_load $x : f32[2]
# CHECK-NEXT:   %e = add %x, %d : f32[2]

# VALUES:      $y: f32[2] = [8.5, 12.25]
# VALUES-NEXT: %c: f32[2] = [4, 6]
# VALUES-NEXT: %d: f32[2] = [8, 12]
# VALUES-NEXT: %z: f32[2] = [0, 0]
# VALUES-NEXT: %i: i32[2] = [8, 12]
# VALUES-NEXT: %m: f32[2,2] = {{\[\[}}1, 2], [3, 4]]
# VALUES-NEXT: %sc: f32[2] = [0.5, 1]
# VALUES-NEXT: %copy: f32[2] = [2, 3]
