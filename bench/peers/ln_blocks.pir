# 4 pre-LN residual blocks h += gelu(layer_norm(h) @ W + b), width 1024, batch 16, MSE
# loss against a target; one SGD step per batch (autodiff). 16 batches per run fed as NPY
# (peers.py writes them with the initial weights and runs the PyTorch peer).
ir {num_host_transfers = 16}
h2d $x : f32[16,1024]
h2d $t : f32[16,1024]
d2h $loss : f32[]
graph @model(%x: f32[16,1024], %t: f32[16,1024], %g1: f32[1024], %be1: f32[1024], %W1: f32[1024,1024], %b1: f32[1024], %g2: f32[1024], %be2: f32[1024], %W2: f32[1024,1024], %b2: f32[1024], %g3: f32[1024], %be3: f32[1024], %W3: f32[1024,1024], %b3: f32[1024], %g4: f32[1024], %be4: f32[1024], %W4: f32[1024,1024], %b4: f32[1024]) -> (f32[]) {
  %n1 = layer_norm %x, %g1, %be1
  %m1 = matmul %n1, %W1
  %mb1 = add %m1, %b1
  %a1 = gelu %mb1
  %h1 = add %x, %a1
  %n2 = layer_norm %h1, %g2, %be2
  %m2 = matmul %n2, %W2
  %mb2 = add %m2, %b2
  %a2 = gelu %mb2
  %h2 = add %h1, %a2
  %n3 = layer_norm %h2, %g3, %be3
  %m3 = matmul %n3, %W3
  %mb3 = add %m3, %b3
  %a3 = gelu %mb3
  %h3 = add %h2, %a3
  %n4 = layer_norm %h3, %g4, %be4
  %m4 = matmul %n4, %W4
  %mb4 = add %m4, %b4
  %a4 = gelu %mb4
  %h4 = add %h3, %a4
  %d = sub %h4, %t
  %sq = mul %d, %d
  %l = mean %sq
  return %l
}
autodiff @model -> @model_grad {grads_required = [%g1, %be1, %W1, %b1, %g2, %be2, %W2, %b2, %g3, %be3, %W3, %b3, %g4, %be4, %W4, %b4]}
graph @step(%g1: &f32[1024], %be1: &f32[1024], %W1: &f32[1024,1024], %b1: &f32[1024], %g2: &f32[1024], %be2: &f32[1024], %W2: &f32[1024,1024], %b2: &f32[1024], %g3: &f32[1024], %be3: &f32[1024], %W3: &f32[1024,1024], %b3: &f32[1024], %g4: &f32[1024], %be4: &f32[1024], %W4: &f32[1024,1024], %b4: &f32[1024]) -> () {
  %x = host_load $x
  %t = host_load $t
  %l = call @model(%x, %t, %g1, %be1, %W1, %b1, %g2, %be2, %W2, %b2, %g3, %be3, %W3, %b3, %g4, %be4, %W4, %b4) as fwd
  %dg1, %dbe1, %dW1, %db1, %dg2, %dbe2, %dW2, %db2, %dg3, %dbe3, %dW3, %db3, %dg4, %dbe4, %dW4, %db4 = call @model_grad(1.0) using fwd
  scaled_add_ %g1, %dg1 {b = -0.01}
  scaled_add_ %be1, %dbe1 {b = -0.01}
  scaled_add_ %W1, %dW1 {b = -0.01}
  scaled_add_ %b1, %db1 {b = -0.01}
  scaled_add_ %g2, %dg2 {b = -0.01}
  scaled_add_ %be2, %dbe2 {b = -0.01}
  scaled_add_ %W2, %dW2 {b = -0.01}
  scaled_add_ %b2, %db2 {b = -0.01}
  scaled_add_ %g3, %dg3 {b = -0.01}
  scaled_add_ %be3, %dbe3 {b = -0.01}
  scaled_add_ %W3, %dW3 {b = -0.01}
  scaled_add_ %b3, %db3 {b = -0.01}
  scaled_add_ %g4, %dg4 {b = -0.01}
  scaled_add_ %be4, %dbe4 {b = -0.01}
  scaled_add_ %W4, %dW4 {b = -0.01}
  scaled_add_ %b4, %db4 {b = -0.01}
  host_store $loss, %l
  return
}
var %g1 : f32[1024] = load("g1.npy")
var %be1 : f32[1024] = load("be1.npy")
var %W1 : f32[1024,1024] = load("W1.npy")
var %b1 : f32[1024] = load("b1.npy")
var %g2 : f32[1024] = load("g2.npy")
var %be2 : f32[1024] = load("be2.npy")
var %W2 : f32[1024,1024] = load("W2.npy")
var %b2 : f32[1024] = load("b2.npy")
var %g3 : f32[1024] = load("g3.npy")
var %be3 : f32[1024] = load("be3.npy")
var %W3 : f32[1024,1024] = load("W3.npy")
var %b3 : f32[1024] = load("b3.npy")
var %g4 : f32[1024] = load("g4.npy")
var %be4 : f32[1024] = load("be4.npy")
var %W4 : f32[1024,1024] = load("W4.npy")
var %b4 : f32[1024] = load("b4.npy")
repeat @step(%g1, %be1, %W1, %b1, %g2, %be2, %W2, %b2, %g3, %be3, %W3, %b3, %g4, %be4, %W4, %b4) {count = 16}
feed $x = load("x.npy")
feed $t = load("t.npy")
run 1
print $loss
