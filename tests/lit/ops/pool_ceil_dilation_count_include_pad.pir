# The pools' ONNX attributes; every value below is PyTorch's (F.max_pool2d /
# F.avg_pool2d / F.max_pool1d with return_indices), computed when this test was written.
# ceil_mode rounds the output length up: the last windows reach past the end padding
# and see only their real cells; count_include_pad counts the padding cells but not
# those past the padding (so without padding it changes nothing). Indices are flat
# row-major indices into the whole input (ONNX: PyTorch's per-plane index + the
# plane's offset, 8 for the second plane of %xi); column_major (ONNX storage_order 1)
# numbers a plane's cells w * H + h.
# RUN: %pir run %s | FileCheck %s
main {
  const %x : f32[1,1,5,7] = [[[[1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14], [15, 16, 17, 100, 19, 20, 21], [22, 23, 24, 25, 26, 27, 28], [29, 30, 31, 32, 33, 34, 35]]]]
  %m = max_pool %x {kernel = [2, 2], stride = [2, 2], padding = [1, 1, 1, 1], dilation = [2, 1], ceil_mode = true}
  %a = average_pool %x {kernel = [3, 3], stride = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true}
  %ap = average_pool %x {kernel = [3, 3], stride = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true, count_include_pad = true}
  %e = average_pool %x {kernel = [2, 2], ceil_mode = true}
  %ep = average_pool %x {kernel = [2, 2], ceil_mode = true, count_include_pad = true}
  %d, %di = max_pool_with_indices %x {kernel = [2, 2], stride = [1, 2], padding = [1, 1, 1, 1], dilation = [2, 2], ceil_mode = true}
  %c, %ci = max_pool_with_indices %x {kernel = [2, 2], stride = [1, 2], padding = [1, 1, 1, 1], dilation = [2, 2], ceil_mode = true, storage_order = column_major}
  const %xi : i32[2,1,8] = [[[3, 1, 4, 1, 5, 9, 2, 6]], [[5, 3, 5, 8, 9, 7, 9, 3]]]
  %yi, %ii = max_pool_with_indices %xi {kernel = [3], stride = [2], padding = [1, 1], ceil_mode = true}
}
run
print %m, %a, %ap, %e, %ep, %d, %di, %ci, %yi, %ii
# CHECK: %m: f32[1,1,3,4] = {{\[\[\[\[}}8, 10, 12, 14], [22, 24, 26, 28], [22, 24, 26, 28]]]]
# CHECK: %a: f32[1,1,3,4] = {{\[\[\[\[}}5, 6.5, 8.5, 10], [15.5, 26.11111, 28.11111, 20.5], [26, 27.5, 29.5, 31]]]]
# CHECK: %ap: f32[1,1,3,4] = {{\[\[\[\[}}2.2222223, 4.3333335, 5.6666665, 4.4444447], [10.333333, 26.11111, 28.11111, 13.666667], [11.555555, 18.333334, 19.666666, 13.777778]]]]
# CHECK: %e: f32[1,1,3,4] = {{\[\[\[\[}}5, 7, 9, 10.5], [19, 41.5, 23, 24.5], [29.5, 31.5, 33.5, 35]]]]
# CHECK: %ep: f32[1,1,3,4] = {{\[\[\[\[}}5, 7, 9, 10.5], [19, 41.5, 23, 24.5], [29.5, 31.5, 33.5, 35]]]]
# CHECK: %d: f32[1,1,5,4] = {{\[\[\[\[}}9, 11, 13, 13], [16, 100, 100, 20], [23, 25, 27, 27], [30, 100, 100, 34], [23, 25, 27, 27]]]]
# CHECK: %di: i32[1,1,5,4] = {{\[\[\[\[}}8, 10, 12, 12], [15, 17, 17, 19], [22, 24, 26, 26], [29, 17, 17, 33], [22, 24, 26, 26]]]]
# CHECK: %ci: i32[1,1,5,4] = {{\[\[\[\[}}6, 16, 26, 26], [7, 17, 17, 27], [8, 18, 28, 28], [9, 17, 17, 29], [8, 18, 28, 28]]]]
# CHECK: %yi: i32[2,1,5] = {{\[\[\[}}3, 4, 9, 9, 6]], {{\[\[}}5, 8, 9, 9, 3]]]
# CHECK: %ii: i32[2,1,5] = {{\[\[\[}}0, 2, 5, 5, 7]], {{\[\[}}8, 11, 12, 14, 15]]]
