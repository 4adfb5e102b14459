# Embedding bag classifier, one SGD step per batch (autodiff): batch 64 of 32 token ids
# into an 8000 x 64 table (gather), mean over the tokens; linear -> 128 + relu; linear
# -> 10; log_softmax + nll_loss. The table's gradient is a scatter-add of 2048 rows.
# 16 batches per run fed as NPY (peers.py writes them with the initial weights and runs
# the PyTorch peer).
ir {num_host_transfers = 16}
h2d $x : i32[64,32]
h2d $y : i32[64]
d2h $loss : f32[]
graph @model(%x: i32[64,32], %E: f32[8000,64], %W1: f32[64,128], %b1: f32[128], %W2: f32[128,10], %b2: f32[10], %y: i32[64]) -> (f32[]) {
  %e = gather %E, %x {axis = 0}
  %m = mean %e {axis = [1]}
  %h0 = matmul %m, %W1
  %h1 = add %h0, %b1
  %h = relu %h1
  %o0 = matmul %h, %W2
  %o = add %o0, %b2
  %lp = log_softmax %o {axis = 1}
  %l = nll_loss %lp, %y {log_prob = true}
  return %l
}
autodiff @model -> @model_grad {grads_required = [%E, %W1, %b1, %W2, %b2]}
graph @step(%E: &f32[8000,64], %W1: &f32[64,128], %b1: &f32[128], %W2: &f32[128,10], %b2: &f32[10]) -> () {
  %x = host_load $x
  %y = host_load $y
  %l = call @model(%x, %E, %W1, %b1, %W2, %b2, %y) as fwd
  %dE, %dW1, %db1, %dW2, %db2 = call @model_grad(1.0) using fwd
  scaled_add_ %E, %dE {b = -0.1}
  scaled_add_ %W1, %dW1 {b = -0.1}
  scaled_add_ %b1, %db1 {b = -0.1}
  scaled_add_ %W2, %dW2 {b = -0.1}
  scaled_add_ %b2, %db2 {b = -0.1}
  host_store $loss, %l
  return
}
var %E : f32[8000,64] = load("E.npy")
var %W1 : f32[64,128] = load("W1.npy")
var %b1 : f32[128] = load("b1.npy")
var %W2 : f32[128,10] = load("W2.npy")
var %b2 : f32[10] = load("b2.npy")
repeat @step(%E, %W1, %b1, %W2, %b2) {count = 16}
feed $x = load("x.npy")
feed $y = load("y.npy")
run 1
print $loss
