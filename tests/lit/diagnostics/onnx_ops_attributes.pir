# The shape rules of the ONNX ops name the operand or attribute at fault: a conv
# bias that is not one value per output channel, a conv_transpose output_padding
# not below the stride, a resize shape of the wrong rank, an einsum diagonal,
# gather_elements indices longer than the data off the axis, lrn's size.
# RUN: not %pir check %s 2>&1 | FileCheck %s
var %x : f32[1, 2, 4, 4] = zeros
var %w : f32[3, 2, 2, 2] = zeros
var %b : f32[2] = zeros
var %t : f32[2, 3, 2, 2] = zeros
var %m : f32[2, 2] = zeros
var %i : i32[3, 1] = zeros
main {
  %y = conv %x, %w, %b
  %z = conv_transpose %x, %t {stride = [2, 2], output_padding = [2, 0]}
  %r = resize %x {shape = [1, 2, 8]}
  %e = einsum %m, %m {equation = "ii,ij->j"}
  %g = gather_elements %m, %i {axis = 1}
  %l = lrn %x {size = 0}
}
# CHECK: onnx_ops_attributes.pir:13:{{[0-9]+}}: error: conv: bias f32[2] must have one value per output channel of the weights f32[3,2,2,2]
# CHECK: onnx_ops_attributes.pir:14:{{[0-9]+}}: error: conv_transpose: output_padding 2 must be in [0, max(stride, dilation))
# CHECK: onnx_ops_attributes.pir:15:{{[0-9]+}}: error: resize: shape [1,2,8] needs one size per axis of [1,2,4,4]
# CHECK: onnx_ops_attributes.pir:16:{{[0-9]+}}: error: einsum: equation 'ii,ij->j': {{.*}}'i'
# CHECK: onnx_ops_attributes.pir:17:{{[0-9]+}}: error: gather_elements: indices i32[3,1] are longer than f32[2,2] on axis 0
# CHECK: onnx_ops_attributes.pir:18:{{[0-9]+}}: error: lrn: size must be >= 1, got 0
