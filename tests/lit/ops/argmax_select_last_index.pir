# RUN: %pir run %s | FileCheck %s
# argmax / argmin with select_last_index (ONNX ArgMax/ArgMin): the last extreme
# instead of the first, on every axis, with and without keepdims; a NaN is the
# extreme (with select_last_index the last NaN, as ONNX's reference finds it on
# the reversed axis). Expected values: NumPy's argmax/argmin, and for the last
# index `n - 1 - argmax(flip(x, axis))`, worked out when this test was written.
main {
  const %x : f32[2,3,4] = [[[3, 1, 3, 2], [0, 5, 5, -1], [0, 2, 0, -1]], [[3, 4, 4, 4], [0, 5, 1, 5], [-2, -2, 0, 9]]]
  const %y : f32[2,5] = [[1, nan, 7, nan, 7], [4, 4, 1, 1, 4]]
  %max_0 = argmax %x {axis = 0}
  %max_0_l = argmax %x {axis = 0, select_last_index = true}
  %max_0_k = argmax %x {axis = 0, keepdims = true}
  %max_0_k_l = argmax %x {axis = 0, keepdims = true, select_last_index = true}
  %max_1 = argmax %x {axis = 1}
  %max_1_l = argmax %x {axis = 1, select_last_index = true}
  %max_1_k = argmax %x {axis = 1, keepdims = true}
  %max_1_k_l = argmax %x {axis = 1, keepdims = true, select_last_index = true}
  %max_2 = argmax %x {axis = 2}
  %max_2_l = argmax %x {axis = 2, select_last_index = true}
  %max_2_k = argmax %x {axis = 2, keepdims = true}
  %max_2_k_l = argmax %x {axis = 2, keepdims = true, select_last_index = true}
  %max_m1 = argmax %x {axis = -1}
  %max_m1_l = argmax %x {axis = -1, select_last_index = true}
  %max_m1_k = argmax %x {axis = -1, keepdims = true}
  %max_m1_k_l = argmax %x {axis = -1, keepdims = true, select_last_index = true}
  %max_nan = argmax %y {axis = 1}
  %max_nan_l = argmax %y {axis = 1, select_last_index = true}
  %min_0 = argmin %x {axis = 0}
  %min_0_l = argmin %x {axis = 0, select_last_index = true}
  %min_0_k = argmin %x {axis = 0, keepdims = true}
  %min_0_k_l = argmin %x {axis = 0, keepdims = true, select_last_index = true}
  %min_1 = argmin %x {axis = 1}
  %min_1_l = argmin %x {axis = 1, select_last_index = true}
  %min_1_k = argmin %x {axis = 1, keepdims = true}
  %min_1_k_l = argmin %x {axis = 1, keepdims = true, select_last_index = true}
  %min_2 = argmin %x {axis = 2}
  %min_2_l = argmin %x {axis = 2, select_last_index = true}
  %min_2_k = argmin %x {axis = 2, keepdims = true}
  %min_2_k_l = argmin %x {axis = 2, keepdims = true, select_last_index = true}
  %min_m1 = argmin %x {axis = -1}
  %min_m1_l = argmin %x {axis = -1, select_last_index = true}
  %min_m1_k = argmin %x {axis = -1, keepdims = true}
  %min_m1_k_l = argmin %x {axis = -1, keepdims = true, select_last_index = true}
  %min_nan = argmin %y {axis = 1}
  %min_nan_l = argmin %y {axis = 1, select_last_index = true}
}
run
print %max_0, %max_0_l, %max_0_k, %max_0_k_l, %max_1, %max_1_l, %max_1_k, %max_1_k_l, %max_2, %max_2_l, %max_2_k, %max_2_k_l, %max_m1, %max_m1_l, %max_m1_k, %max_m1_k_l, %max_nan, %max_nan_l, %min_0, %min_0_l, %min_0_k, %min_0_k_l, %min_1, %min_1_l, %min_1_k, %min_1_k_l, %min_2, %min_2_l, %min_2_k, %min_2_k_l, %min_m1, %min_m1_l, %min_m1_k, %min_m1_k_l, %min_nan, %min_nan_l
# CHECK: %max_0: i32[3,4] = {{\[\[}}0, 1, 1, 1], [0, 0, 0, 1], [0, 0, 0, 1]]
# CHECK-NEXT: %max_0_l: i32[3,4] = {{\[\[}}1, 1, 1, 1], [1, 1, 0, 1], [0, 0, 1, 1]]
# CHECK-NEXT: %max_0_k: i32[1,3,4] = {{\[\[}}[0, 1, 1, 1], [0, 0, 0, 1], [0, 0, 0, 1]]]
# CHECK-NEXT: %max_0_k_l: i32[1,3,4] = {{\[\[}}[1, 1, 1, 1], [1, 1, 0, 1], [0, 0, 1, 1]]]
# CHECK-NEXT: %max_1: i32[2,4] = {{\[\[}}0, 1, 1, 0], [0, 1, 0, 2]]
# CHECK-NEXT: %max_1_l: i32[2,4] = {{\[\[}}0, 1, 1, 0], [0, 1, 0, 2]]
# CHECK-NEXT: %max_1_k: i32[2,1,4] = {{\[\[}}[0, 1, 1, 0]], {{\[\[}}0, 1, 0, 2]]]
# CHECK-NEXT: %max_1_k_l: i32[2,1,4] = {{\[\[}}[0, 1, 1, 0]], {{\[\[}}0, 1, 0, 2]]]
# CHECK-NEXT: %max_2: i32[2,3] = {{\[\[}}0, 1, 1], [1, 1, 3]]
# CHECK-NEXT: %max_2_l: i32[2,3] = {{\[\[}}2, 2, 1], [3, 3, 3]]
# CHECK-NEXT: %max_2_k: i32[2,3,1] = {{\[\[}}[0], [1], [1]], {{\[\[}}1], [1], [3]]]
# CHECK-NEXT: %max_2_k_l: i32[2,3,1] = {{\[\[}}[2], [2], [1]], {{\[\[}}3], [3], [3]]]
# CHECK-NEXT: %max_m1: i32[2,3] = {{\[\[}}0, 1, 1], [1, 1, 3]]
# CHECK-NEXT: %max_m1_l: i32[2,3] = {{\[\[}}2, 2, 1], [3, 3, 3]]
# CHECK-NEXT: %max_m1_k: i32[2,3,1] = {{\[\[}}[0], [1], [1]], {{\[\[}}1], [1], [3]]]
# CHECK-NEXT: %max_m1_k_l: i32[2,3,1] = {{\[\[}}[2], [2], [1]], {{\[\[}}3], [3], [3]]]
# CHECK-NEXT: %max_nan: i32[2] = [1, 0]
# CHECK-NEXT: %max_nan_l: i32[2] = [3, 4]
# CHECK-NEXT: %min_0: i32[3,4] = {{\[\[}}0, 0, 0, 0], [0, 0, 1, 0], [1, 1, 0, 0]]
# CHECK-NEXT: %min_0_l: i32[3,4] = {{\[\[}}1, 0, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]]
# CHECK-NEXT: %min_0_k: i32[1,3,4] = {{\[\[}}[0, 0, 0, 0], [0, 0, 1, 0], [1, 1, 0, 0]]]
# CHECK-NEXT: %min_0_k_l: i32[1,3,4] = {{\[\[}}[1, 0, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]]]
# CHECK-NEXT: %min_1: i32[2,4] = {{\[\[}}1, 0, 2, 1], [2, 2, 2, 0]]
# CHECK-NEXT: %min_1_l: i32[2,4] = {{\[\[}}2, 0, 2, 2], [2, 2, 2, 0]]
# CHECK-NEXT: %min_1_k: i32[2,1,4] = {{\[\[}}[1, 0, 2, 1]], {{\[\[}}2, 2, 2, 0]]]
# CHECK-NEXT: %min_1_k_l: i32[2,1,4] = {{\[\[}}[2, 0, 2, 2]], {{\[\[}}2, 2, 2, 0]]]
# CHECK-NEXT: %min_2: i32[2,3] = {{\[\[}}1, 3, 3], [0, 0, 0]]
# CHECK-NEXT: %min_2_l: i32[2,3] = {{\[\[}}1, 3, 3], [0, 0, 1]]
# CHECK-NEXT: %min_2_k: i32[2,3,1] = {{\[\[}}[1], [3], [3]], {{\[\[}}0], [0], [0]]]
# CHECK-NEXT: %min_2_k_l: i32[2,3,1] = {{\[\[}}[1], [3], [3]], {{\[\[}}0], [0], [1]]]
# CHECK-NEXT: %min_m1: i32[2,3] = {{\[\[}}1, 3, 3], [0, 0, 0]]
# CHECK-NEXT: %min_m1_l: i32[2,3] = {{\[\[}}1, 3, 3], [0, 0, 1]]
# CHECK-NEXT: %min_m1_k: i32[2,3,1] = {{\[\[}}[1], [3], [3]], {{\[\[}}0], [0], [0]]]
# CHECK-NEXT: %min_m1_k_l: i32[2,3,1] = {{\[\[}}[1], [3], [3]], {{\[\[}}0], [0], [1]]]
# CHECK-NEXT: %min_nan: i32[2] = [1, 2]
# CHECK-NEXT: %min_nan_l: i32[2] = [3, 3]
