# Small residual conv net, one SGD step per batch (autodiff): batch 16 of 8x32x32; conv
# 3x3 -> 16 (pad 1) + group_norm (4 groups) + relu; conv 3x3 -> 16 + group_norm, plus
# the block's input, relu; conv 3x3 stride 2 -> 32 + bias + relu; mean over the image;
# linear -> 10; log_softmax + nll_loss. 16 batches per run fed as NPY (peers.py writes
# them with the initial weights and runs the PyTorch peer).
ir {num_host_transfers = 16}
h2d $x : f32[16,8,32,32]
h2d $y : i32[16]
d2h $loss : f32[]
graph @model(%x: f32[16,8,32,32], %W1: f32[16,8,3,3], %ga1: f32[16], %be1: f32[16], %W2: f32[16,16,3,3], %ga2: f32[16], %be2: f32[16], %W3: f32[32,16,3,3], %b3: f32[32], %W4: f32[32,10], %b4: f32[10], %y: i32[16]) -> (f32[]) {
  %c1 = conv %x, %W1 {padding = [1, 1, 1, 1]}
  %g1 = group_norm %c1, %ga1, %be1 {groups = 4}
  %r1 = relu %g1
  %c2 = conv %r1, %W2 {padding = [1, 1, 1, 1]}
  %g2 = group_norm %c2, %ga2, %be2 {groups = 4}
  %s2 = add %g2, %r1
  %r2 = relu %s2
  %c3 = conv %r2, %W3, %b3 {stride = [2, 2], padding = [1, 1, 1, 1]}
  %r3 = relu %c3
  %m = mean %r3 {axis = [2, 3]}
  %o0 = matmul %m, %W4
  %o = add %o0, %b4
  %lp = log_softmax %o {axis = 1}
  %l = nll_loss %lp, %y {log_prob = true}
  return %l
}
autodiff @model -> @model_grad {grads_required = [%W1, %ga1, %be1, %W2, %ga2, %be2, %W3, %b3, %W4, %b4]}
graph @step(%W1: &f32[16,8,3,3], %ga1: &f32[16], %be1: &f32[16], %W2: &f32[16,16,3,3], %ga2: &f32[16], %be2: &f32[16], %W3: &f32[32,16,3,3], %b3: &f32[32], %W4: &f32[32,10], %b4: &f32[10]) -> () {
  %x = host_load $x
  %y = host_load $y
  %l = call @model(%x, %W1, %ga1, %be1, %W2, %ga2, %be2, %W3, %b3, %W4, %b4, %y) as fwd
  %dW1, %dga1, %dbe1, %dW2, %dga2, %dbe2, %dW3, %db3, %dW4, %db4 = call @model_grad(1.0) using fwd
  scaled_add_ %W1, %dW1 {b = -0.05}
  scaled_add_ %ga1, %dga1 {b = -0.05}
  scaled_add_ %be1, %dbe1 {b = -0.05}
  scaled_add_ %W2, %dW2 {b = -0.05}
  scaled_add_ %ga2, %dga2 {b = -0.05}
  scaled_add_ %be2, %dbe2 {b = -0.05}
  scaled_add_ %W3, %dW3 {b = -0.05}
  scaled_add_ %b3, %db3 {b = -0.05}
  scaled_add_ %W4, %dW4 {b = -0.05}
  scaled_add_ %b4, %db4 {b = -0.05}
  host_store $loss, %l
  return
}
var %W1 : f32[16,8,3,3] = load("W1.npy")
var %ga1 : f32[16] = load("ga1.npy")
var %be1 : f32[16] = load("be1.npy")
var %W2 : f32[16,16,3,3] = load("W2.npy")
var %ga2 : f32[16] = load("ga2.npy")
var %be2 : f32[16] = load("be2.npy")
var %W3 : f32[32,16,3,3] = load("W3.npy")
var %b3 : f32[32] = load("b3.npy")
var %W4 : f32[32,10] = load("W4.npy")
var %b4 : f32[10] = load("b4.npy")
repeat @step(%W1, %ga1, %be1, %W2, %ga2, %be2, %W3, %b3, %W4, %b4) {count = 16}
feed $x = load("x.npy")
feed $y = load("y.npy")
run 1
print $loss
