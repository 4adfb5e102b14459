# Collectives compute in the tensor's own dtype with the elementwise kernels'
# arithmetic: integer sums and products wrap like `add` and `mul` (two's
# complement), they do not saturate; an integer mean truncates like `div`.
# RUN: %pir run %s | FileCheck %s
ir {replication = 2}
main {
  var %x : i32[3] = [[2147483647, -2147483648, 65536], [1, -1, 65536]] {replica_grouping = (1, 1)}
  var %b : i8[2] = [[127, -7], [1, 2]] {replica_grouping = (1, 1)}
  var %u : u8[1] = [[200], [100]] {replica_grouping = (1, 1)}
  %sum = replicated_all_reduce %x {op = add}
  %prod = replicated_all_reduce %x {op = mul}
  %mean = replicated_all_reduce %b {op = mean}
  %b8 = replicated_all_reduce %b {op = add}
  %u8 = replicated_all_reduce %u {op = add}
  %sq = replicated_all_reduce %b {op = square_add}
}
run
print %sum, %prod, %mean, %b8, %u8, %sq
# 2147483647 + 1 wraps to -2147483648; -2147483648 + -1 to 2147483647; 65536 * 65536 to 0.
# CHECK: %sum: i32[2,3] = {{\[\[}}-2147483648, 2147483647, 131072], [-2147483648, 2147483647, 131072]]
# CHECK-NEXT: %prod: i32[2,3] = {{\[\[}}2147483647, -2147483648, 0], [2147483647, -2147483648, 0]]
# i8: 127 + 1 = -128, mean -128 / 2 = -64; -7 + 2 = -5, mean -5 / 2 = -2 (toward zero).
# CHECK-NEXT: %mean: i8[2,2] = {{\[\[}}-64, -2], [-64, -2]]
# CHECK-NEXT: %b8: i8[2,2] = {{\[\[}}-128, -5], [-128, -5]]
# CHECK-NEXT: %u8: u8[2,1] = {{\[\[}}44], [44]]
# 127*127 = 16129 -> 1 (mod 256, as i8), + 1 = 2; 49 + 4 = 53.
# CHECK-NEXT: %sq: i8[2,2] = {{\[\[}}2, 53], [2, 53]]
