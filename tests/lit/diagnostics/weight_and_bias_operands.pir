# nll_loss's class weights and conv_transpose's bias are checked by their shape
# rules, which name the operand at fault and what it must be: weights of another
# length, rank or dtype than one per class of probs, a bias that is not one value
# of the input's dtype per output channel (C_out = w.shape[1] * groups), and the
# new flags given something other than true or false.
# RUN: not %pir check %s 2>&1 | FileCheck %s
var %p : f32[4, 3] = zeros
var %t : i32[4] = zeros
var %w4 : f32[4] = zeros
var %w13 : f32[1, 3] = zeros
var %wh : f16[3] = zeros
var %x : f32[1, 2, 3, 3] = zeros
var %k : f32[2, 3, 2, 2] = zeros
var %b2 : f32[2] = zeros
var %bh : f16[3] = zeros
var %b3 : f32[3] = zeros
main {
  %a = nll_loss %p, %t, %w4
  %b = nll_loss %p, %t, %w13 {reduction = sum}
  %c = nll_loss %p, %t, %wh
  %d = conv_transpose %x, %k, %b2
  %e = conv_transpose %x, %k, %bh
  %f = conv_transpose %x, %k, %b3 {groups = 2}
  %g = argmax %p {select_last_index = 1}
  %h = cumsum %p {reverse = "yes"}
}
# CHECK: weight_and_bias_operands.pir:18:{{[0-9]+}}: error: nll_loss: weight f32[4] must hold one weight per class of probs f32[4,3]: f32[3]
# CHECK: weight_and_bias_operands.pir:19:{{[0-9]+}}: error: nll_loss: weight f32[1,3] must hold one weight per class of probs f32[4,3]: f32[3]
# CHECK: weight_and_bias_operands.pir:20:{{[0-9]+}}: error: nll_loss: weight f16[3] must hold one weight per class of probs f32[4,3]: f32[3]
# CHECK: weight_and_bias_operands.pir:21:{{[0-9]+}}: error: conv_transpose: bias f32[2] must have one value per output channel: f32[3]
# CHECK: weight_and_bias_operands.pir:22:{{[0-9]+}}: error: conv_transpose: bias f16[3] must have one value per output channel: f32[3]
# CHECK: weight_and_bias_operands.pir:23:{{[0-9]+}}: error: conv_transpose: bias f32[3] must have one value per output channel: f32[6]
# CHECK: weight_and_bias_operands.pir:24:{{[0-9]+}}: error: argmax: attribute 'select_last_index' must be true or false
# CHECK: weight_and_bias_operands.pir:25:{{[0-9]+}}: error: cumsum: attribute 'reverse' must be true or false
