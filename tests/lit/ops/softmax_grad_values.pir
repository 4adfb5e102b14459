# RUN: %pir run %s | FileCheck %s
# Values worked out by hand (NumPy agrees): g * y - y * sum(g * y), and g - exp(y) * sum(g).
const %y : f32[2,3] = [[0.125, 0.375, 0.5], [0.5, 0.25, 0.25]]
const %gr : f32[2,3] = [[1, -2, 0.5], [3, 0, -1]]
const %zero : f32[2,3] = 0
main {
  %rows = softmax_grad %y, %gr
  %cols = softmax_grad %y, %gr {axis = 0}
  %logs = log_softmax_grad %zero, %gr
}
run
print %rows
print %cols
print %logs
# CHECK: %rows: f32[2,3] = {{\[}}[0.171875, -0.609375, 0.4375], [0.875, -0.3125, -0.5625]]
# CHECK: %cols: f32[2,3] = {{\[}}[-0.078125, -0.46875, 0.25], [0.6875, 0.1875, -0.25]]
# CHECK: %logs: f32[2,3] = {{\[}}[1.5, -1.5, 1], [1, -2, -3]]
