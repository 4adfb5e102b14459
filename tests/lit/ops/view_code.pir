# What views cost: reshape_ shares its operand's storage (no instruction); transpose_
# is one permuted copy, and a write through it one `view_sync` back to the operand.
# A view read after a write to its operand is refreshed first; one never read is not.
# RUN: %pir disasm %s | FileCheck %s
var %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
%r = reshape_ %x {shape = [3, 2]}
%t = transpose_ %x
add_ %t, 1
%y = identity %x
mul_ %x, 2
%z = identity %t
# CHECK: @main
# CHECK-NOT: reshape_
# CHECK: kernel transpose_ {{.*}}s0(%x) -> [[T:s[0-9]+]](%t) {{.*}}view_code.pir:7:6
# CHECK-NEXT: kernel add_ {{.*}}[[T]](%t), {{.*}} -> [[T]](%t) {{.*}}view_code.pir:8:1
# CHECK-NEXT: view_sync transpose_ {{.*}}[[T]](%t) -> s0(%x) {{.*}}view_code.pir:7:6
# CHECK-NEXT: kernel identity {{.*}}s0(%x) -> {{.*}}view_code.pir:9:6
# CHECK-NEXT: kernel mul_ {{.*}}view_code.pir:10:1
# CHECK-NEXT: view_sync transpose_ {{.*}}s0(%x) -> [[T]](%t) {{.*}}view_code.pir:7:6
# CHECK-NEXT: kernel identity {{.*}}[[T]](%t) -> {{.*}}view_code.pir:11:6
# CHECK-NOT: view_sync
