# Tutorial step 3: variables keep their values across runs; in-place ops.
#
# RUN: %pir run %s | FileCheck %s
h2d $x : f32[2]
d2h $y : f32[2]

main {
  var %w : f32[2] = [1, 2]
  var %count : i32[] = 0
  %x = host_load $x
  %y = mul %x, %w
  host_store $y, %y
  add_ %w, %x
  add_ %count, 1
}

feed $x = [1, 1]
run 3
print $y, %w, %count
# Run 1: y = [1, 2], w becomes [2, 3]; run 2: y = [2, 3], w = [3, 4];
# run 3: y = [3, 4], w = [4, 5].
# CHECK: $y: f32[2] = [3, 4]
# CHECK-NEXT: %w: f32[2] = [4, 5]
# CHECK-NEXT: %count: i32[] = 3

write %w = [0, 0]
run
print $y, %w
# CHECK-NEXT: $y: f32[2] = [0, 0]
# CHECK-NEXT: %w: f32[2] = [1, 1]
