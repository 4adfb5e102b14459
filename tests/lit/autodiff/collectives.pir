# Gradients of the replica collectives (ops.md): all_reduce add/mean -> an all-reduce of
# the gradient; all_gather -> a replicated slice; reduce_scatter add -> an all-gather
# (trimmed to x's shape); replicated_slice -> an all-gather. Two replicas, per-replica
# inputs and upstream gradients from h2d streams; expectations worked out by hand
# (small integers, exact in f32).
# RUN: %pir run %s | FileCheck %s
ir {replication = 2}
h2d $x : f32[4]
h2d $g4 : f32[4]
h2d $g2 : f32[2]
h2d $g24 : f32[2,4]
graph @ar_add(%x: f32[4]) -> (f32[4]) {
  %y = replicated_all_reduce %x
  return %y
}
graph @ar_mean(%x: f32[4]) -> (f32[4]) {
  %y = replicated_all_reduce %x {op = mean}
  return %y
}
graph @ag(%x: f32[4]) -> (f32[2,4]) {
  %y = replicated_all_gather %x
  return %y
}
graph @ag_concat(%x: f32[4]) -> (f32[8]) {
  %y = replicated_all_gather %x {output_shape = concat}
  return %y
}
graph @rs(%x: f32[4]) -> (f32[2]) {
  %y = replicated_reduce_scatter %x
  return %y
}
graph @rsl(%x: f32[4]) -> (f32[2]) {
  %y = replicated_slice %x
  return %y
}
autodiff @ar_add -> @ar_add_grad
autodiff @ar_mean -> @ar_mean_grad
autodiff @ag -> @ag_grad
autodiff @ag_concat -> @ag_concat_grad
autodiff @rs -> @rs_grad
autodiff @rsl -> @rsl_grad
main {
  %x = host_load $x
  %g4 = host_load $g4
  %g2 = host_load $g2
  %g24 = host_load $g24
  %g8 = reshape %g24 {shape = [8]}
  %d_ar_add = call @ar_add_grad(%g4)
  %d_ar_mean = call @ar_mean_grad(%g4)
  %d_ag = call @ag_grad(%g24)
  %d_ag_concat = call @ag_concat_grad(%g8)
  %d_rs = call @rs_grad(%g2)
  %d_rsl = call @rsl_grad(%g2)
}
feed $x = [[1, 2, 3, 4], [5, 6, 7, 8]]
feed $g4 = [[1, 2, 3, 4], [10, 20, 30, 40]]
feed $g2 = [[1, 2], [30, 40]]
feed $g24 = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[10, 20, 30, 40], [50, 60, 70, 80]]]
run
print %d_ar_add, %d_ar_mean, %d_ag, %d_ag_concat, %d_rs, %d_rsl
# CHECK: %d_ar_add: f32[2,4] = {{\[}}[11, 22, 33, 44], [11, 22, 33, 44]]
# CHECK-NEXT: %d_ar_mean: f32[2,4] = {{\[}}[5.5, 11, 16.5, 22], [5.5, 11, 16.5, 22]]
# CHECK-NEXT: %d_ag: f32[2,4] = {{\[}}[1, 2, 3, 4], [50, 60, 70, 80]]
# CHECK-NEXT: %d_ag_concat: f32[2,4] = {{\[}}[1, 2, 3, 4], [50, 60, 70, 80]]
# CHECK-NEXT: %d_rs: f32[2,4] = {{\[}}[1, 2, 30, 40], [1, 2, 30, 40]]
# CHECK-NEXT: %d_rsl: f32[2,4] = {{\[}}[1, 2, 30, 40], [1, 2, 30, 40]]
