# R = 1: every collective is over a group of one (the replica itself).
# RUN: %pir run %s | FileCheck %s
main {
  var %x : f32[4] = [1, -2, 3, 4]
  %add = replicated_all_reduce %x {op = add}
  %mean = replicated_all_reduce %x {op = mean}
  %sq = replicated_all_reduce %x {op = square_add}
  %g = replicated_all_gather %x
  %rs = replicated_reduce_scatter %x {op = max}
  %sl = replicated_slice %x
  replicated_all_reduce_ %x {op = mul}
}
run
print %add, %mean, %sq, %g, %rs, %sl, %x
# CHECK: %add: f32[4] = [1, -2, 3, 4]
# CHECK-NEXT: %mean: f32[4] = [1, -2, 3, 4]
# CHECK-NEXT: %sq: f32[4] = [1, 4, 9, 16]
# CHECK-NEXT: %g: f32[1,4] = {{\[\[}}1, -2, 3, 4]]
# CHECK-NEXT: %rs: f32[4] = [1, -2, 3, 4]
# CHECK-NEXT: %sl: f32[4] = [1, -2, 3, 4]
# CHECK-NEXT: %x: f32[4] = [1, -2, 3, 4]
