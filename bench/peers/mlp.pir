# MLP 784-256-10, batch 64, one SGD step per batch (autodiff); softmax + nll_loss.
# 16 batches per run fed as NPY (peers.py writes them with the initial weights).
ir {num_host_transfers = 16}
h2d $x : f32[64,784]
h2d $y : i32[64]
d2h $loss : f32[]
graph @model(%x: f32[64,784], %W1: f32[784,256], %b1: f32[256], %W2: f32[256,10], %b2: f32[10], %y: i32[64]) -> (f32[]) {
  %h = matmul %x, %W1
  %hb = add %h, %b1
  %a = relu %hb
  %o = matmul %a, %W2
  %ob = add %o, %b2
  %p = softmax %ob {axis = 1}
  %l = nll_loss %p, %y
  return %l
}
autodiff @model -> @model_grad {grads_required = [%W1, %b1, %W2, %b2]}
graph @step(%W1: &f32[784,256], %b1: &f32[256], %W2: &f32[256,10], %b2: &f32[10]) -> () {
  %x = host_load $x
  %y = host_load $y
  %l = call @model(%x, %W1, %b1, %W2, %b2, %y) as fwd
  %dW1, %db1, %dW2, %db2 = call @model_grad(1.0) using fwd
  scaled_add_ %W1, %dW1 {b = -0.1}
  scaled_add_ %b1, %db1 {b = -0.1}
  scaled_add_ %W2, %dW2 {b = -0.1}
  scaled_add_ %b2, %db2 {b = -0.1}
  host_store $loss, %l
  return
}
var %W1 : f32[784,256] = load("W1.npy")
var %b1 : f32[256] = load("b1.npy")
var %W2 : f32[256,10] = load("W2.npy")
var %b2 : f32[10] = load("b2.npy")
repeat @step(%W1, %b1, %W2, %b2) {count = 16}
feed $x = load("x.npy")
feed $y = load("y.npy")
run 1
print $loss
