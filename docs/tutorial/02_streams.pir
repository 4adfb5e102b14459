# Tutorial step 2: data in and out through host streams.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir run --trace %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
h2d $x : f32[2,3]
d2h $y : f32[2,3]

main {
  %x = host_load $x
  %y = add %x, 1
  host_store $y, %y
}

feed $x = [[1, 2, 3], [4, 5, 6]]
run
print $y
# CHECK: $y: f32[2,3] = {{\[\[}}2, 3, 4], [5, 6, 7]]

# --trace: one line per instruction, its value and the time it took.
# TRACE: @main {{.*}}02_streams.pir:9:8 host_load -> %x: f32[2,3] = {{\[\[}}1, 2, 3], [4, 5, 6]]  ({{[0-9]+\.[0-9]}} us)
# TRACE-NEXT: @main {{.*}}02_streams.pir:10:8 add -> %y: f32[2,3] = {{\[\[}}2, 3, 4], [5, 6, 7]]  ({{[0-9]+\.[0-9]}} us)
# TRACE-NEXT: @main {{.*}}02_streams.pir:11:3 host_store -> $y: f32[2,3] = {{\[\[}}2, 3, 4], [5, 6, 7]]  ({{[0-9]+\.[0-9]}} us)
