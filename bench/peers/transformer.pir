# Transformer encoder layer, one SGD step per batch (autodiff): batch 8, sequence 64,
# width 128, 4 heads of 32, FFN 512 with tanh-gelu, post-LN layer_norm after each
# residual, MSE loss against a target. 16 batches per run fed as NPY (peers.py writes
# them with the initial weights and runs the PyTorch peer).
ir {num_host_transfers = 16}
h2d $x : f32[512,128]
h2d $t : f32[512,128]
d2h $loss : f32[]
graph @model(%x: f32[512,128], %t: f32[512,128], %Wq: f32[128,128], %bq: f32[128], %Wk: f32[128,128], %bk: f32[128], %Wv: f32[128,128], %bv: f32[128], %Wo: f32[128,128], %bo: f32[128], %g1: f32[128], %be1: f32[128], %W1: f32[128,512], %b1: f32[512], %W2: f32[512,128], %b2: f32[128], %g2: f32[128], %be2: f32[128]) -> (f32[]) {
  %q0 = matmul %x, %Wq
  %q = add %q0, %bq
  %k0 = matmul %x, %Wk
  %k = add %k0, %bk
  %v0 = matmul %x, %Wv
  %v = add %v0, %bv
  %qr = reshape %q {shape = [8, 64, 4, 32]}
  %qh = transpose %qr {perm = [0, 2, 1, 3]}
  %kr = reshape %k {shape = [8, 64, 4, 32]}
  %kt = transpose %kr {perm = [0, 2, 3, 1]}
  %vr = reshape %v {shape = [8, 64, 4, 32]}
  %vh = transpose %vr {perm = [0, 2, 1, 3]}
  %s0 = matmul %qh, %kt
  %s = mul %s0, 0.17677669529663687
  %p = softmax %s {axis = -1}
  %c = matmul %p, %vh
  %ct = transpose %c {perm = [0, 2, 1, 3]}
  %cr = reshape %ct {shape = [512, 128]}
  %a0 = matmul %cr, %Wo
  %a = add %a0, %bo
  %r1 = add %x, %a
  %h = layer_norm %r1, %g1, %be1
  %f0 = matmul %h, %W1
  %f1 = add %f0, %b1
  %f = gelu %f1
  %e0 = matmul %f, %W2
  %e = add %e0, %b2
  %r2 = add %h, %e
  %o = layer_norm %r2, %g2, %be2
  %d = sub %o, %t
  %sq = mul %d, %d
  %l = mean %sq
  return %l
}
autodiff @model -> @model_grad {grads_required = [%Wq, %bq, %Wk, %bk, %Wv, %bv, %Wo, %bo, %g1, %be1, %W1, %b1, %W2, %b2, %g2, %be2]}
graph @step(%Wq: &f32[128,128], %bq: &f32[128], %Wk: &f32[128,128], %bk: &f32[128], %Wv: &f32[128,128], %bv: &f32[128], %Wo: &f32[128,128], %bo: &f32[128], %g1: &f32[128], %be1: &f32[128], %W1: &f32[128,512], %b1: &f32[512], %W2: &f32[512,128], %b2: &f32[128], %g2: &f32[128], %be2: &f32[128]) -> () {
  %x = host_load $x
  %t = host_load $t
  %l = call @model(%x, %t, %Wq, %bq, %Wk, %bk, %Wv, %bv, %Wo, %bo, %g1, %be1, %W1, %b1, %W2, %b2, %g2, %be2) as fwd
  %dWq, %dbq, %dWk, %dbk, %dWv, %dbv, %dWo, %dbo, %dg1, %dbe1, %dW1, %db1, %dW2, %db2, %dg2, %dbe2 = call @model_grad(1.0) using fwd
  scaled_add_ %Wq, %dWq {b = -0.01}
  scaled_add_ %bq, %dbq {b = -0.01}
  scaled_add_ %Wk, %dWk {b = -0.01}
  scaled_add_ %bk, %dbk {b = -0.01}
  scaled_add_ %Wv, %dWv {b = -0.01}
  scaled_add_ %bv, %dbv {b = -0.01}
  scaled_add_ %Wo, %dWo {b = -0.01}
  scaled_add_ %bo, %dbo {b = -0.01}
  scaled_add_ %g1, %dg1 {b = -0.01}
  scaled_add_ %be1, %dbe1 {b = -0.01}
  scaled_add_ %W1, %dW1 {b = -0.01}
  scaled_add_ %b1, %db1 {b = -0.01}
  scaled_add_ %W2, %dW2 {b = -0.01}
  scaled_add_ %b2, %db2 {b = -0.01}
  scaled_add_ %g2, %dg2 {b = -0.01}
  scaled_add_ %be2, %dbe2 {b = -0.01}
  host_store $loss, %l
  return
}
var %Wq : f32[128,128] = load("Wq.npy")
var %bq : f32[128] = load("bq.npy")
var %Wk : f32[128,128] = load("Wk.npy")
var %bk : f32[128] = load("bk.npy")
var %Wv : f32[128,128] = load("Wv.npy")
var %bv : f32[128] = load("bv.npy")
var %Wo : f32[128,128] = load("Wo.npy")
var %bo : f32[128] = load("bo.npy")
var %g1 : f32[128] = load("g1.npy")
var %be1 : f32[128] = load("be1.npy")
var %W1 : f32[128,512] = load("W1.npy")
var %b1 : f32[512] = load("b1.npy")
var %W2 : f32[512,128] = load("W2.npy")
var %b2 : f32[128] = load("b2.npy")
var %g2 : f32[128] = load("g2.npy")
var %be2 : f32[128] = load("be2.npy")
repeat @step(%Wq, %bq, %Wk, %bk, %Wv, %bv, %Wo, %bo, %g1, %be1, %W1, %b1, %W2, %b2, %g2, %be2) {count = 16}
feed $x = load("x.npy")
feed $t = load("t.npy")
run 1
print $loss
