# The axes of flatten (in [-r, r]), onehot (the class axis, in [-(r + 1), r]) and
# layer_norm (in [-r, r)) are checked against the rank, and layer_norm's gamma and
# beta against the dims from its axis.
# RUN: not %pir check %s 2>&1 | FileCheck %s
var %x : f32[2, 3, 4] = zeros
var %g : f32[4] = zeros
var %i : i32[5] = zeros
main {
  %f = flatten %x {axis = 4}
  %fn = flatten %x {axis = -4}
  %h = onehot %i {num_classes = 3, axis = 2}
  %hn = onehot %i {num_classes = 3, axis = -3}
  %l = layer_norm %x, %g, %g {axis = 3}
  %lg = layer_norm %x, %g, %g {axis = 1}
  %lgrad, %dg, %db = layer_norm_grad %x, %g, %x {axis = -4}
}
# CHECK: axis_attributes.pir:9:{{[0-9]+}}: error: flatten: axis 4 is out of range for f32[2,3,4] (in [-3, 3])
# CHECK: axis_attributes.pir:10:{{[0-9]+}}: error: flatten: axis -4 is out of range for f32[2,3,4] (in [-3, 3])
# CHECK: axis_attributes.pir:11:{{[0-9]+}}: error: onehot: axis 2 is out of range for the classes of i32[5] (in [-2, 1])
# CHECK: axis_attributes.pir:12:{{[0-9]+}}: error: onehot: axis -3 is out of range for the classes of i32[5] (in [-2, 1])
# CHECK: axis_attributes.pir:13:{{[0-9]+}}: error: layer_norm: axis 3 is out of range for f32[2,3,4] (rank 3)
# CHECK: axis_attributes.pir:14:{{[0-9]+}}: error: layer_norm: gamma must be f32[3,4], got f32[4]
# CHECK: axis_attributes.pir:15:{{[0-9]+}}: error: layer_norm_grad: axis -4 is out of range for f32[2,3,4] (rank 3)
