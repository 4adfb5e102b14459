# RUN: %pir run %s | FileCheck %s
# cumsum's exclusive and reverse (ONNX CumSum): all four combinations on every
# axis, f32 and i32. Expected values: NumPy's cumsum of the input (flipped for
# reverse, minus the input for exclusive), worked out when this test was written.
main {
  const %x : f32[3,4] = [[1, 2, 3, 4], [0.5, -1, 10, 0.25], [3, -3, 2, 8]]
  const %k : i32[5] = [5, -2, 7, 1, 9]
  %x0 = cumsum %x {axis = 0}
  %x0_r = cumsum %x {axis = 0, reverse = true}
  %x0_e = cumsum %x {axis = 0, exclusive = true}
  %x0_e_r = cumsum %x {axis = 0, exclusive = true, reverse = true}
  %x1 = cumsum %x {axis = 1}
  %x1_r = cumsum %x {axis = 1, reverse = true}
  %x1_e = cumsum %x {axis = 1, exclusive = true}
  %x1_e_r = cumsum %x {axis = 1, exclusive = true, reverse = true}
  %xm1 = cumsum %x {axis = -1}
  %xm1_r = cumsum %x {axis = -1, reverse = true}
  %xm1_e = cumsum %x {axis = -1, exclusive = true}
  %xm1_e_r = cumsum %x {axis = -1, exclusive = true, reverse = true}
  %k0 = cumsum %k {axis = 0}
  %k0_r = cumsum %k {axis = 0, reverse = true}
  %k0_e = cumsum %k {axis = 0, exclusive = true}
  %k0_e_r = cumsum %k {axis = 0, exclusive = true, reverse = true}
}
run
print %x0, %x0_r, %x0_e, %x0_e_r, %x1, %x1_r, %x1_e, %x1_e_r, %xm1, %xm1_r, %xm1_e, %xm1_e_r, %k0, %k0_r, %k0_e, %k0_e_r
# CHECK: %x0: f32[3,4] = {{\[\[}}1, 2, 3, 4], [1.5, 1, 13, 4.25], [4.5, -2, 15, 12.25]]
# CHECK-NEXT: %x0_r: f32[3,4] = {{\[\[}}4.5, -2, 15, 12.25], [3.5, -4, 12, 8.25], [3, -3, 2, 8]]
# CHECK-NEXT: %x0_e: f32[3,4] = {{\[\[}}0, 0, 0, 0], [1, 2, 3, 4], [1.5, 1, 13, 4.25]]
# CHECK-NEXT: %x0_e_r: f32[3,4] = {{\[\[}}3.5, -4, 12, 8.25], [3, -3, 2, 8], [0, 0, 0, 0]]
# CHECK-NEXT: %x1: f32[3,4] = {{\[\[}}1, 3, 6, 10], [0.5, -0.5, 9.5, 9.75], [3, 0, 2, 10]]
# CHECK-NEXT: %x1_r: f32[3,4] = {{\[\[}}10, 9, 7, 4], [9.75, 9.25, 10.25, 0.25], [10, 7, 10, 8]]
# CHECK-NEXT: %x1_e: f32[3,4] = {{\[\[}}0, 1, 3, 6], [0, 0.5, -0.5, 9.5], [0, 3, 0, 2]]
# CHECK-NEXT: %x1_e_r: f32[3,4] = {{\[\[}}9, 7, 4, 0], [9.25, 10.25, 0.25, 0], [7, 10, 8, 0]]
# CHECK-NEXT: %xm1: f32[3,4] = {{\[\[}}1, 3, 6, 10], [0.5, -0.5, 9.5, 9.75], [3, 0, 2, 10]]
# CHECK-NEXT: %xm1_r: f32[3,4] = {{\[\[}}10, 9, 7, 4], [9.75, 9.25, 10.25, 0.25], [10, 7, 10, 8]]
# CHECK-NEXT: %xm1_e: f32[3,4] = {{\[\[}}0, 1, 3, 6], [0, 0.5, -0.5, 9.5], [0, 3, 0, 2]]
# CHECK-NEXT: %xm1_e_r: f32[3,4] = {{\[\[}}9, 7, 4, 0], [9.25, 10.25, 0.25, 0], [7, 10, 8, 0]]
# CHECK-NEXT: %k0: i32[5] = [5, 3, 10, 11, 20]
# CHECK-NEXT: %k0_r: i32[5] = [20, 15, 17, 10, 9]
# CHECK-NEXT: %k0_e: i32[5] = [0, 5, 3, 10, 11]
# CHECK-NEXT: %k0_e_r: i32[5] = [15, 17, 10, 9, 0]
