# Training an imported model: a small CNN exported by torch.onnx.export
# (Inputs/imported_cnn.py: conv 3x3 1->4 + relu + max_pool 2x2, linear 64->3)
# and brought in by `pir import imported_cnn.onnx -o imported_cnn.pir`.
#
# The import is a `main` that reads $image, runs the model and writes $logits.
# To train it, its statements move into `graph @model`, with the input and the
# weights (the import's `var`s) as parameters; a log-softmax cross-entropy loss
# follows the imported statements, `autodiff` differentiates the whole graph, and
# `@step` applies SGD (learning rate 0.1) to the weights, which stay variables in
# `main`, loaded from the .npy files the import wrote. Eight steps in one run.
#
# The losses match PyTorch's (Inputs/imported_cnn.py losses, float64, same data
# and initial weights) to 1e-4 relative; tests/onnx/torch_models.py `train`
# checks that the imported statements are still what `pir import` writes for
# the model, and compares the losses with PyTorch trained alongside.
#
# RUN: %pir run %s > %t && %python %S/../tests/lit/autodiff/Inputs/check_grads.py %s %t
ir {num_host_transfers = 8}

d2h $loss : f32[]

graph @model(%image: f32[6,1,8,8], %y: i32[6], %conv_weight: f32[4,1,3,3], %conv_bias: f32[4], %fc_weight: f32[3,64], %fc_bias: f32[3]) -> (f32[]) {
  # imported statements (pir import imported_cnn.onnx)
  %_conv_Conv_output_0 = conv %image, %conv_weight, %conv_bias {stride = [1, 1], padding = [1, 1, 1, 1], dilation = [1, 1]} : f32[6,4,8,8]
  %_Relu_output_0 = relu %_conv_Conv_output_0 : f32[6,4,8,8]
  %_MaxPool_output_0 = max_pool %_Relu_output_0 {kernel = [2, 2], stride = [2, 2], padding = [0, 0, 0, 0]} : f32[6,4,4,4]
  %_Flatten_output_0 = flatten %_MaxPool_output_0 {axis = 1} : f32[6,64]
  %logits_t = matmul %_Flatten_output_0, %fc_weight {transpose_b = true} : f32[6,3]
  %logits = add %logits_t, %fc_bias : f32[6,3]
  # end of the imported statements
  %lp = log_softmax %logits {axis = 1}
  %l = nll_loss %lp, %y {log_prob = true}
  return %l
}
autodiff @model -> @model_grad {grads_required = [%conv_weight, %conv_bias, %fc_weight, %fc_bias]}

graph @step(%conv_weight: &f32[4,1,3,3], %conv_bias: &f32[4], %fc_weight: &f32[3,64], %fc_bias: &f32[3]) -> () {
  const %image : f32[6,1,8,8] = load("Inputs/imported_cnn.x.npy")
  const %y : i32[6] = load("Inputs/imported_cnn.y.npy")
  %l = call @model(%image, %y, %conv_weight, %conv_bias, %fc_weight, %fc_bias) as fwd
  %dcw, %dcb, %dfw, %dfb = call @model_grad(1.0) using fwd
  scaled_add_ %conv_weight, %dcw {b = -0.1}
  scaled_add_ %conv_bias, %dcb {b = -0.1}
  scaled_add_ %fc_weight, %dfw {b = -0.1}
  scaled_add_ %fc_bias, %dfb {b = -0.1}
  host_store $loss, %l
  return
}

main {
  # the import's variables
  var %conv_weight : f32[4,1,3,3] = load("Inputs/imported_cnn.conv_weight.npy")
  var %conv_bias : f32[4] = [-0.19458017, 0.2865327, 0.14873946, 0.16155753]
  var %fc_weight : f32[3,64] = load("Inputs/imported_cnn.fc_weight.npy")
  var %fc_bias : f32[3] = [0.015604854, 0.1119616, 0.07646406]
  repeat @step(%conv_weight, %conv_bias, %fc_weight, %fc_bias) {count = 8}
}

run
print $loss
# EXPECT: $loss: f32[8] = [1.0802228, 1.0246649, 0.98516019, 0.95001586, 0.91582348, 0.88187795, 0.84794429, 0.81369566]
