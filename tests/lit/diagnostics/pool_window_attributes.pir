# Bad pooling windows are errors at the attribute (or the operand) that made them:
# a dilation that overflows int64 or is below 1, a list of the wrong length, a
# ceil_mode window still longer than the padded input (ceil_mode gives one output
# when the window is longer by less than a stride, as PyTorch, never an empty
# one), flat indices that do not fit in i32, and a bool input. `check` goes on
# after each op.
# RUN: not %pir check %s 2>&1 | FileCheck %s
graph @f(%x: f32[1,1,4,4], %big: f32[1,1,65536,32769], %b: bool[1,1,4]) -> () {
  %a = max_pool %x {kernel = [2, 2], dilation = [9223372036854775807, 1]}
  %c = average_pool %x {kernel = [2, 2], dilation = [0, 1]}
  %d = max_pool %x {kernel = [2, 2], dilation = [1, 2, 3]}
  %e = max_pool %x {kernel = [7, 2], stride = [2, 2], ceil_mode = true}
  %f = average_pool %x {kernel = [5, 2], stride = [2, 2], ceil_mode = true}
  %g, %gi = max_pool_with_indices %big {kernel = [2, 2]}
  %h, %hi = max_pool_with_indices %b {kernel = [2]}
  return
}
# CHECK: pool_window_attributes.pir:9:{{[0-9]+}}: error: {{.*}}dilation 9223372036854775807 makes the kernel longer than int64
# CHECK: pool_window_attributes.pir:10:{{[0-9]+}}: error: {{.*}}attribute 'dilation' values must be >= 1, got [0,1]
# CHECK: pool_window_attributes.pir:11:{{[0-9]+}}: error: {{.*}}attribute 'dilation' needs 2 values, got [1,2,3]
# CHECK: pool_window_attributes.pir:12:{{[0-9]+}}: error: {{.*}}window of size 7 is larger than the padded input f32[1,1,4,4]
# CHECK-NOT: pool_window_attributes.pir:13:
# CHECK: pool_window_attributes.pir:14:{{[0-9]+}}: error: {{.*}}the flat indices of f32[1,1,65536,32769] do not fit in i32
# CHECK: pool_window_attributes.pir:15:{{[0-9]+}}: error: {{.*}}bool
