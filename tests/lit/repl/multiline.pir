# Inputs continue over lines until brackets and braces balance: a graph, a
# main block and a literal typed over several lines.
# RUN: %pir repl < %s 2>&1 | FileCheck %s --match-full-lines
graph @affine(%x: f32[2],
              %w: f32[2],
              %acc: &f32[2]) {
  %y = mul %x, %w
  accumulate_ %acc, %y
  return %y
}
# CHECK:@affine(f32[2], f32[2], &f32[2]) -> (f32[2])
var %m : f32[2,2] = [[1, 2],
                     [3, 4]]
# CHECK-NEXT:%m: f32[2,2] = {{\[\[}}1, 2], [3, 4]]
main {
  var %a : f32[2] = [1, 2]
  var %acc : f32[2] = 0
  %r = call @affine(%a, %a, %acc)
}
# CHECK-NEXT:%a: f32[2] = [1, 2]
# CHECK-NEXT:%acc: f32[2] = [0, 0]
# CHECK-NEXT:%r: f32[2] = [1, 4]  (preview: `run` computes it)
run
print %acc, %r
# CHECK-NEXT:%acc: f32[2] = [1, 4]
# CHECK-NEXT:%r: f32[2] = [1, 4]
