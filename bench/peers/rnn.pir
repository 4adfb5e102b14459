# Elman RNN unrolled over 16 time steps, one SGD step per batch (autodiff): batch 32,
# input 64, hidden 128, h = tanh(x_t @ Wx + h @ Wh + b); MSE of the last h against a
# target. Many small ops: what each op costs beside its arithmetic decides the step.
# 16 batches per run fed as NPY (peers.py writes them with the initial weights and runs
# the PyTorch peer).
ir {num_host_transfers = 16}
h2d $x : f32[16,32,64]
h2d $t : f32[32,128]
d2h $loss : f32[]
graph @model(%x: f32[16,32,64], %t: f32[32,128], %Wx: f32[64,128], %Wh: f32[128,128], %b: f32[128]) -> (f32[]) {
  %xs0 = slice %x {start = [0], stop = [1]}
  %xt0 = reshape %xs0 {shape = [32, 64]}
  %a0 = matmul %xt0, %Wx
  %q0 = add %a0, %b
  %h0 = tanh %q0
  %xs1 = slice %x {start = [1], stop = [2]}
  %xt1 = reshape %xs1 {shape = [32, 64]}
  %a1 = matmul %xt1, %Wx
  %hh1 = matmul %h0, %Wh
  %p1 = add %a1, %hh1
  %q1 = add %p1, %b
  %h1 = tanh %q1
  %xs2 = slice %x {start = [2], stop = [3]}
  %xt2 = reshape %xs2 {shape = [32, 64]}
  %a2 = matmul %xt2, %Wx
  %hh2 = matmul %h1, %Wh
  %p2 = add %a2, %hh2
  %q2 = add %p2, %b
  %h2 = tanh %q2
  %xs3 = slice %x {start = [3], stop = [4]}
  %xt3 = reshape %xs3 {shape = [32, 64]}
  %a3 = matmul %xt3, %Wx
  %hh3 = matmul %h2, %Wh
  %p3 = add %a3, %hh3
  %q3 = add %p3, %b
  %h3 = tanh %q3
  %xs4 = slice %x {start = [4], stop = [5]}
  %xt4 = reshape %xs4 {shape = [32, 64]}
  %a4 = matmul %xt4, %Wx
  %hh4 = matmul %h3, %Wh
  %p4 = add %a4, %hh4
  %q4 = add %p4, %b
  %h4 = tanh %q4
  %xs5 = slice %x {start = [5], stop = [6]}
  %xt5 = reshape %xs5 {shape = [32, 64]}
  %a5 = matmul %xt5, %Wx
  %hh5 = matmul %h4, %Wh
  %p5 = add %a5, %hh5
  %q5 = add %p5, %b
  %h5 = tanh %q5
  %xs6 = slice %x {start = [6], stop = [7]}
  %xt6 = reshape %xs6 {shape = [32, 64]}
  %a6 = matmul %xt6, %Wx
  %hh6 = matmul %h5, %Wh
  %p6 = add %a6, %hh6
  %q6 = add %p6, %b
  %h6 = tanh %q6
  %xs7 = slice %x {start = [7], stop = [8]}
  %xt7 = reshape %xs7 {shape = [32, 64]}
  %a7 = matmul %xt7, %Wx
  %hh7 = matmul %h6, %Wh
  %p7 = add %a7, %hh7
  %q7 = add %p7, %b
  %h7 = tanh %q7
  %xs8 = slice %x {start = [8], stop = [9]}
  %xt8 = reshape %xs8 {shape = [32, 64]}
  %a8 = matmul %xt8, %Wx
  %hh8 = matmul %h7, %Wh
  %p8 = add %a8, %hh8
  %q8 = add %p8, %b
  %h8 = tanh %q8
  %xs9 = slice %x {start = [9], stop = [10]}
  %xt9 = reshape %xs9 {shape = [32, 64]}
  %a9 = matmul %xt9, %Wx
  %hh9 = matmul %h8, %Wh
  %p9 = add %a9, %hh9
  %q9 = add %p9, %b
  %h9 = tanh %q9
  %xs10 = slice %x {start = [10], stop = [11]}
  %xt10 = reshape %xs10 {shape = [32, 64]}
  %a10 = matmul %xt10, %Wx
  %hh10 = matmul %h9, %Wh
  %p10 = add %a10, %hh10
  %q10 = add %p10, %b
  %h10 = tanh %q10
  %xs11 = slice %x {start = [11], stop = [12]}
  %xt11 = reshape %xs11 {shape = [32, 64]}
  %a11 = matmul %xt11, %Wx
  %hh11 = matmul %h10, %Wh
  %p11 = add %a11, %hh11
  %q11 = add %p11, %b
  %h11 = tanh %q11
  %xs12 = slice %x {start = [12], stop = [13]}
  %xt12 = reshape %xs12 {shape = [32, 64]}
  %a12 = matmul %xt12, %Wx
  %hh12 = matmul %h11, %Wh
  %p12 = add %a12, %hh12
  %q12 = add %p12, %b
  %h12 = tanh %q12
  %xs13 = slice %x {start = [13], stop = [14]}
  %xt13 = reshape %xs13 {shape = [32, 64]}
  %a13 = matmul %xt13, %Wx
  %hh13 = matmul %h12, %Wh
  %p13 = add %a13, %hh13
  %q13 = add %p13, %b
  %h13 = tanh %q13
  %xs14 = slice %x {start = [14], stop = [15]}
  %xt14 = reshape %xs14 {shape = [32, 64]}
  %a14 = matmul %xt14, %Wx
  %hh14 = matmul %h13, %Wh
  %p14 = add %a14, %hh14
  %q14 = add %p14, %b
  %h14 = tanh %q14
  %xs15 = slice %x {start = [15], stop = [16]}
  %xt15 = reshape %xs15 {shape = [32, 64]}
  %a15 = matmul %xt15, %Wx
  %hh15 = matmul %h14, %Wh
  %p15 = add %a15, %hh15
  %q15 = add %p15, %b
  %h15 = tanh %q15
  %d = sub %h15, %t
  %sq = mul %d, %d
  %l = mean %sq
  return %l
}
autodiff @model -> @model_grad {grads_required = [%Wx, %Wh, %b]}
graph @step(%Wx: &f32[64,128], %Wh: &f32[128,128], %b: &f32[128]) -> () {
  %x = host_load $x
  %t = host_load $t
  %l = call @model(%x, %t, %Wx, %Wh, %b) as fwd
  %dWx, %dWh, %db = call @model_grad(1.0) using fwd
  scaled_add_ %Wx, %dWx {b = -0.05}
  scaled_add_ %Wh, %dWh {b = -0.05}
  scaled_add_ %b, %db {b = -0.05}
  host_store $loss, %l
  return
}
var %Wx : f32[64,128] = load("Wx.npy")
var %Wh : f32[128,128] = load("Wh.npy")
var %b : f32[128] = load("b.npy")
repeat @step(%Wx, %Wh, %b) {count = 16}
feed $x = load("x.npy")
feed $t = load("t.npy")
run 1
print $loss
