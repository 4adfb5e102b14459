# --trace (tools.md §1): one line per executed instruction with the value it
# produced in the format of `print` (shape kept, summarised above 1000 elements
# as print does), the value a host_store sends, and the time it took.
# RUN: %pir run --trace %s 2>&1 >/dev/null | FileCheck %s
# RUN: %pir run --trace %s 2>/dev/null | FileCheck %s --check-prefix=OUT
ir {replication = 2}
h2d $x : f32[2,3]
d2h $y : f32[2,3]
graph @twice(%v: f32[2,3]) -> (f32[2,3]) {
  %w = add %v, %v
  return %w
}
main {
  %x = host_load $x
  %y = call @twice(%x)
  host_store $y, %y
  %big = init {shape = [40, 40], dtype = i32}
}
feed $x = [[[1, 2, 3], [4, 5, 6]], [[0, 0, 0], [0, 0, 1]]]
run
print $y
# CHECK: [replica 0] @main {{.*}}trace_values.pir:14:8 host_load -> %x: f32[2,3] = {{\[\[}}1, 2, 3], [4, 5, 6]]  ({{[0-9]+\.[0-9]}} us)
# CHECK-NEXT: [replica 0] @twice {{.*}}trace_values.pir:10:8 add -> %w: f32[2,3] = {{\[\[}}2, 4, 6], [8, 10, 12]]  ({{[0-9]+\.[0-9]}} us)
# CHECK-NEXT: [replica 0] @main {{.*}}trace_values.pir:15:8 call -> %y: f32[2,3] = {{\[\[}}2, 4, 6], [8, 10, 12]]  ({{[0-9]+\.[0-9]}} us)
# CHECK-NEXT: [replica 0] @main {{.*}}trace_values.pir:16:3 host_store -> $y: f32[2,3] = {{\[\[}}2, 4, 6], [8, 10, 12]]  ({{[0-9]+\.[0-9]}} us)
# 1600 elements: summarised like print, 3 edge items per axis.
# CHECK-NEXT: [replica 0] @main {{.*}}trace_values.pir:17:10 init -> %big: i32[40,40] = {{\[\[}}0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0], ..., [0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0]]  ({{[0-9]+\.[0-9]}} us)
# CHECK-NEXT: [replica 1] @main {{.*}}trace_values.pir:14:8 host_load -> %x: f32[2,3] = {{\[\[}}0, 0, 0], [0, 0, 1]]
# CHECK-NEXT: [replica 1] @twice {{.*}} add -> %w: f32[2,3] = {{\[\[}}0, 0, 0], [0, 0, 2]]
# The run's own output is unchanged by --trace.
# OUT: $y: f32[2,2,3] = {{\[\[\[}}2, 4, 6], [8, 10, 12]], {{\[\[}}0, 0, 0], [0, 0, 2]]]
