# Data-parallel training with autodiff: the model and data of train_mlp.pir on
# two replicas. `replicated_slice` gives each replica three of the six samples,
# each computes the gradient of its half-batch loss with @model_grad, and
# `replicated_all_reduce {op = mean}` averages the gradients, so both replicas
# take the full-batch SGD step of train_mlp.pir and print its losses (to f32
# rounding: the sums are split differently). Under `mpirun -np 2` each process
# runs one replica and prints the same (tests/mpi_replicas.sh compares them).
#
# RUN: %pir run %s > %t && %python %S/../tests/lit/autodiff/Inputs/check_grads.py %s %t
# RUN: %pir run --threads=1 %s > %t1 && %python %S/../tests/lit/autodiff/Inputs/check_grads.py %s %t1
ir {replication = 2, num_host_transfers = 12}

d2h $loss : f32[]

graph @model(%x: f32[3,4], %y: i32[3], %W1: f32[4,8], %b1: f32[8], %g: f32[8], %beta: f32[8], %W2: f32[8,3], %b2: f32[3]) -> (f32[]) {
  %h = matmul %x, %W1
  %hb = add %h, %b1
  %n = layer_norm %hb, %g, %beta
  %a = gelu %n
  %o = matmul %a, %W2
  %ob = add %o, %b2
  %lp = log_softmax %ob {axis = 1}
  %l = nll_loss %lp, %y {log_prob = true}
  return %l
}
autodiff @model -> @model_grad {grads_required = [%W1, %b1, %g, %beta, %W2, %b2]}

graph @step(%W1: &f32[4,8], %b1: &f32[8], %g: &f32[8], %beta: &f32[8], %W2: &f32[8,3], %b2: &f32[3]) -> () {
  const %x : f32[6,4] = [[0.1, 0.42, -0.42, 0.02], [0.79, 0.79, -0.75, -0.59], [-0.9, -0.12, -0.94, -0.09], [0.3, -0.44, 0.35, 0.18], [-0.95, 0.12, -0.48, -0.17], [-0.43, 0.39, -0.12, -0.69]]
  const %y : i32[6] = [0, 2, 1, 1, 0, 2]
  %xs = replicated_slice %x
  %ys = replicated_slice %y
  %l = call @model(%xs, %ys, %W1, %b1, %g, %beta, %W2, %b2) as fwd
  %lW1, %lb1, %lg, %lbeta, %lW2, %lb2 = call @model_grad(1.0) using fwd
  %dW1 = replicated_all_reduce %lW1 {op = mean}
  %db1 = replicated_all_reduce %lb1 {op = mean}
  %dg = replicated_all_reduce %lg {op = mean}
  %dbeta = replicated_all_reduce %lbeta {op = mean}
  %dW2 = replicated_all_reduce %lW2 {op = mean}
  %db2 = replicated_all_reduce %lb2 {op = mean}
  scaled_add_ %W1, %dW1 {b = -0.5}
  scaled_add_ %b1, %db1 {b = -0.5}
  scaled_add_ %g, %dg {b = -0.5}
  scaled_add_ %beta, %dbeta {b = -0.5}
  scaled_add_ %W2, %dW2 {b = -0.5}
  scaled_add_ %b2, %db2 {b = -0.5}
  %batch_loss = replicated_all_reduce %l {op = mean}
  host_store $loss, %batch_loss
  return
}

main {
  var %W1 : f32[4,8] = [[0.74, 0.12, -0.51, -0.36, 0.31, -0.08, -0.38, -0.12], [0.37, 0.99, -0.62, -0.31, -0.4, -1.21, -0.46, -0.51], [0.56, -0.07, -0.81, 0.32, -0.18, -0.87, -0.3, -0.29], [-0.44, 0.01, -1.12, -0.13, 0.51, 0.43, 0.55, 0.56]]
  var %b1 : f32[8] = zeros
  var %g : f32[8] = ones
  var %beta : f32[8] = zeros
  var %W2 : f32[8,3] = [[0.74, -0.56, 0.42], [-0.93, -0.3, -0.96], [0.52, 0.67, -0.1], [0.89, -0.34, 0.08], [0.08, -0.53, 0.22], [0.97, -0.51, 0.45], [-0.08, 0.88, 0.24], [0.34, 0.32, 0.12]]
  var %b2 : f32[3] = zeros
  repeat @step(%W1, %b1, %g, %beta, %W2, %b2) {count = 12}
}

run
print $loss
# The two replicas store the same batch loss, which is that of train_mlp.pir.
# EXPECT: $loss: f32[12,2] = [[1.8025225, 1.8025225], [0.98684675, 0.98684675], [0.81458881, 0.81458881], [0.72170929, 0.72170929], [0.64580744, 0.64580744], [0.56743674, 0.56743674], [0.48557562, 0.48557562], [0.40645986, 0.40645986], [0.33551485, 0.33551485], [0.2754571, 0.2754571], [0.22624487, 0.22624487], [0.18646647, 0.18646647]]
