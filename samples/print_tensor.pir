# print_tensor prints `TITLE: VALUE` when the op runs, in program order, and
# returns its input unchanged (ops.md). An empty title uses the tensor's name.
#
# RUN: %pir run %s | FileCheck %s
main {
  const %a : f32[2,2] = [[1, 2], [3, 4]]
  %seen = print_tensor %a {title = "a"}
  %squares = mul %seen, %seen
  %shown = print_tensor %squares
  %total = sum %shown
  %t = print_tensor %total {title = "sum of squares"}
}
run
print %t
# CHECK: a: {{\[\[}}1, 2], [3, 4]]
# CHECK-NEXT: squares: {{\[\[}}1, 4], [9, 16]]
# 1 + 4 + 9 + 16 = 30
# CHECK-NEXT: sum of squares: 30
# CHECK-NEXT: %t: f32[] = 30
