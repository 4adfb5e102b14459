# max_pool_grad gives each output's gradient to the first window cell (row-major) equal
# to the maximum: ties go to the first, a NaN maximum goes nowhere, padding cells count
# as -inf and drop what they take (the second case: padding comes before the -inf).
# RUN: %pir run %s | FileCheck %s
main {
  const %x : f32[1,1,6] = [[[2, 2, nan, 1, -inf, -inf]]]
  const %g : f32[1,1,4] = [[[1, 2, 3, 4]]]
  %dx = max_pool_grad %x, %g {kernel = [2], padding = [1, 1]}
  const %y : f32[1,1,2] = [[[-inf, 5]]]
  const %h : f32[1,1,2] = [[[7, 8]]]
  %dy = max_pool_grad %y, %h {kernel = [2], padding = [1, 1]}
}
run
print %dx, %dy
# CHECK: %dx: f32[1,1,6] = {{\[\[\[}}1, 0, 0, 3, 0, 4]]]
# CHECK: %dy: f32[1,1,2] = {{\[\[\[}}0, 8]]]
