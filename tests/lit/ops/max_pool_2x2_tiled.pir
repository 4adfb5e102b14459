# max_pool {kernel = [2, 2]} (stride 2, no padding) and its gradient run as one pass of
# the SIMD table (vm/simd_kernels.h maxPool2x2); f16 runs the general window kernels.
# Both give the same results: ties go to the first cell, NaN propagates forward and
# drops the gradient, an all -inf window's gradient goes to its first cell, cells no
# window covers (odd sizes) get 0. The second case is wide enough for whole vectors.
# RUN: %pir run %s | FileCheck %s
main {
  const %x : f32[1,2,5,5] = [[[[1, 2, 3, 3, 9], [2, 0, 3, 3, 9], [nan, 1, -inf, -inf, 9], [5, 5, -inf, -inf, 9], [9, 9, 9, 9, 9]], [[-1, -2, 4, 4, 0], [-3, -1, 4, nan, 0], [0, 7, 1, 1, 0], [7, 7, 1, 1, 0], [0, 0, 0, 0, 0]]]]
  const %g : f32[1,2,2,2] = [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]
  %y = max_pool %x {kernel = [2, 2]}
  %dx = max_pool_grad %x, %g {kernel = [2, 2]}
  %xh = cast %x {dtype = f16}
  %gh = cast %g {dtype = f16}
  %yh = max_pool %xh {kernel = [2, 2]}
  %dxh = max_pool_grad %xh, %gh {kernel = [2, 2]}
  %y16 = cast %yh {dtype = f32}
  %dx16 = cast %dxh {dtype = f32}
  const %seed : u32[2] = [1, 2]
  %seeds0, %seeds1 = split_random_seed %seed
  %xu = random_uniform %seeds0 {shape = [3, 5, 37, 41], low = -4, high = 4}
  %xr = round %xu
  %wxh = cast %xr {dtype = f16}
  %wx = cast %wxh {dtype = f32}
  %gu = random_uniform %seeds1 {shape = [3, 5, 18, 20], low = -8, high = 8}
  %gr = round %gu
  %wgh = cast %gr {dtype = f16}
  %wg = cast %wgh {dtype = f32}
  %wy = max_pool %wx {kernel = [2, 2]}
  %wdx = max_pool_grad %wx, %wg {kernel = [2, 2]}
  %wyh = max_pool %wxh {kernel = [2, 2]}
  %wdxh = max_pool_grad %wxh, %wgh {kernel = [2, 2]}
  %wy16 = cast %wyh {dtype = f32}
  %wdx16 = cast %wdxh {dtype = f32}
  %ny = not_equal %wy, %wy16
  %nd = not_equal %wdx, %wdx16
  %cy = cast %ny {dtype = i32}
  %cd = cast %nd {dtype = i32}
  %y_differs = sum %cy
  %dx_differs = sum %cd
  %nz = not_equal %wdx, 0.0
  %cnz = cast %nz {dtype = i32}
  %dx_nonzero = sum %cnz
}
run
print %y, %y16, %dx, %dx16, %y_differs, %dx_differs, %dx_nonzero
# CHECK: %y: f32[1,2,2,2] = {{\[\[\[\[}}2, 3], [nan, -inf]], {{\[\[}}-1, nan], [7, 1]]]]
# CHECK: %y16: f32[1,2,2,2] = {{\[\[\[\[}}2, 3], [nan, -inf]], {{\[\[}}-1, nan], [7, 1]]]]
# CHECK: %dx: f32[1,2,5,5] = {{\[\[\[\[}}0, 1, 2, 0, 0], [0, 0, 0, 0, 0], [0, 0, 4, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], {{\[\[}}5, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 7, 8, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]]]
# CHECK: %dx16: f32[1,2,5,5] = {{\[\[\[\[}}0, 1, 2, 0, 0], [0, 0, 0, 0, 0], [0, 0, 4, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], {{\[\[}}5, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 7, 8, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]]]
# CHECK: %y_differs: i32[] = 0
# CHECK: %dx_differs: i32[] = 0
# CHECK: %dx_nonzero: i32[] = {{[1-9][0-9][0-9][0-9]}}
