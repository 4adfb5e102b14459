# Small CNN, one SGD step per batch (autodiff): batch 32 of 1x28x28; conv 3x3 -> 8
# channels (pad 1) + bias + relu + max_pool 2x2; conv 3x3 -> 16 channels (pad 1) + bias +
# relu + max_pool 2x2; flatten; linear -> 10; log_softmax + nll_loss. 16 batches per run
# fed as NPY (peers.py writes them with the initial weights and runs the PyTorch peer).
ir {num_host_transfers = 16}
h2d $x : f32[32,1,28,28]
h2d $y : i32[32]
d2h $loss : f32[]
graph @model(%x: f32[32,1,28,28], %W1: f32[8,1,3,3], %b1: f32[8,1,1], %W2: f32[16,8,3,3], %b2: f32[16,1,1], %W3: f32[784,10], %b3: f32[10], %y: i32[32]) -> (f32[]) {
  %c1 = conv %x, %W1 {padding = [1, 1, 1, 1]}
  %c1b = add %c1, %b1
  %r1 = relu %c1b
  %p1 = max_pool %r1 {kernel = [2, 2]}
  %c2 = conv %p1, %W2 {padding = [1, 1, 1, 1]}
  %c2b = add %c2, %b2
  %r2 = relu %c2b
  %p2 = max_pool %r2 {kernel = [2, 2]}
  %f = reshape %p2 {shape = [32, 784]}
  %o = matmul %f, %W3
  %ob = add %o, %b3
  %lp = log_softmax %ob {axis = 1}
  %l = nll_loss %lp, %y {log_prob = true}
  return %l
}
autodiff @model -> @model_grad {grads_required = [%W1, %b1, %W2, %b2, %W3, %b3]}
graph @step(%W1: &f32[8,1,3,3], %b1: &f32[8,1,1], %W2: &f32[16,8,3,3], %b2: &f32[16,1,1], %W3: &f32[784,10], %b3: &f32[10]) -> () {
  %x = host_load $x
  %y = host_load $y
  %l = call @model(%x, %W1, %b1, %W2, %b2, %W3, %b3, %y) as fwd
  %dW1, %db1, %dW2, %db2, %dW3, %db3 = call @model_grad(1.0) using fwd
  scaled_add_ %W1, %dW1 {b = -0.05}
  scaled_add_ %b1, %db1 {b = -0.05}
  scaled_add_ %W2, %dW2 {b = -0.05}
  scaled_add_ %b2, %db2 {b = -0.05}
  scaled_add_ %W3, %dW3 {b = -0.05}
  scaled_add_ %b3, %db3 {b = -0.05}
  host_store $loss, %l
  return
}
var %W1 : f32[8,1,3,3] = load("W1.npy")
var %b1 : f32[8,1,1] = load("b1.npy")
var %W2 : f32[16,8,3,3] = load("W2.npy")
var %b2 : f32[16,1,1] = load("b2.npy")
var %W3 : f32[784,10] = load("W3.npy")
var %b3 : f32[10] = load("b3.npy")
repeat @step(%W1, %b1, %W2, %b2, %W3, %b3) {count = 16}
feed $x = load("x.npy")
feed $y = load("y.npy")
run 1
print $loss
