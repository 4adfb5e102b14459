# fuse-matmul-updates: `scaled_add_ %w, %p` where %p is a matmul's product read by
# that update alone becomes `matmul_scaled_add_ %x, %y, %w` in the update's place
# (alpha = the update's b, beta = its a, the matmul's transpose flags kept). A
# gradient call whose returned product such an update reads is inlined to reach
# it. Kept: a product read twice or returned, an update with tensor scales, one
# whose matmul operands may be written in between, and main graph's ops. The fused
# update moves up to just after the last op that may touch the weight: another
# parameter does not count when every call binds the parameters to distinct
# tensors. The session runs the pass on what it compiles: the fused step gives the
# weights the unfused one gives (small products are added as scaled_add_ adds them).
# RUN: %pir opt %s --passes=fold-transposes,fuse-matmul-updates | FileCheck %s
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
# RUN: %pir opt %s --passes=fold-transposes,fuse-matmul-updates -o %t.pir
# RUN: %pir opt %t.pir -o %t.again.pir
# RUN: diff %t.pir %t.again.pir
graph @fwd(%x: f32[4,3], %W: f32[3,2]) -> (f32[]) {
  %y = matmul %x, %W
  %t = tanh %y
  %l = sum %t
  return %l
}
autodiff @fwd -> @fwd_grad {grads_required = [%W]}
graph @step(%x: f32[4,3], %W: &f32[3,2]) -> () {
  %l = call @fwd(%x, %W) as f
  %dW = call @fwd_grad(1.0) using f
  scaled_add_ %W, %dW {b = -0.5}
  return
}
# CHECK-LABEL: graph @step(
# CHECK-NOT: call @fwd_grad
# CHECK: matmul_scaled_add_ %x, %{{[0-9]+}}, %W {alpha = -0.5, transpose_a = true}
# CHECK-NEXT: return
graph @step_ref(%x: f32[4,3], %W: &f32[3,2]) -> () {
  %l = call @fwd(%x, %W) as f
  %dW = call @fwd_grad(1.0) using f
  scaled_add_ %W, %dW, 1.0, -0.5
  return
}
# CHECK-LABEL: graph @step_ref(
# CHECK: %dW = call @fwd_grad(
# CHECK-NEXT: scaled_add_ %W, %dW, 1, -0.5
graph @kept(%x: f32[4,3], %g: f32[4,2], %W: &f32[3,2], %V: &f32[3,2], %xs: &f32[4,3]) -> (f32[3,2]) {
  %xt = transpose %x
  %p = matmul %xt, %g
  %u = scaled_add_ %W, %p {a = 0.5, b = 2}
  %q = matmul %xt, %g
  scaled_add_ %V, %q
  %r = matmul %xs, %g {transpose_a = true}
  scaled_add_ %xs, %x
  scaled_add_ %V, %r
  %s = matmul %xt, %g
  scaled_add_ %W, %s, 1.0, 1.0
  %b = matmul %xt, %g
  scaled_add_ %V, %b
  scaled_add_ %W, %b
  return %q
}
# CHECK-LABEL: graph @kept(
# CHECK-NEXT: %xt = transpose %x
# CHECK-NEXT: %u = matmul_scaled_add_ %x, %g, %W {alpha = 2, beta = 0.5, transpose_a = true}
# CHECK-NEXT: %q = matmul %xt, %g
# CHECK-NEXT: scaled_add_ %V, %q
# CHECK-NEXT: %r = matmul %xs, %g {transpose_a = true}
# CHECK-NEXT: scaled_add_ %xs, %x
# CHECK-NEXT: scaled_add_ %V, %r
# CHECK-NEXT: %s = matmul %xt, %g
# CHECK-NEXT: scaled_add_ %W, %s, 1, 1
# CHECK-NEXT: %b = matmul %xt, %g
# CHECK-NEXT: scaled_add_ %V, %b
# CHECK-NEXT: scaled_add_ %W, %b
graph @hoist(%x: f32[4,3], %g: f32[4,2], %W: &f32[3,2], %V: &f32[3,2]) -> () {
  %p = matmul %x, %g {transpose_a = true}
  %r = mul %W, 0.5
  %v = mul %V, 2
  scaled_add_ %V, %v
  scaled_add_ %V, %r {b = 0}
  scaled_add_ %W, %p {b = -1}
  return
}
# CHECK-LABEL: graph @hoist(
# CHECK-NEXT: %r = mul %W, 0.5
# CHECK-NEXT: matmul_scaled_add_ %x, %g, %W {alpha = -1, transpose_a = true}
# CHECK-NEXT: %v = mul %V, 2
# CHECK-NEXT: scaled_add_ %V, %v
# CHECK-NEXT: scaled_add_ %V, %r {b = 0}
# CHECK-NEXT: return
graph @hoist_shared(%x: f32[4,3], %g: f32[4,2], %W: &f32[3,2], %V: &f32[3,2]) -> (f32[3,2]) {
  %p = matmul %x, %g {transpose_a = true}
  %r = mul %W, 0.5
  %v = mul %V, 2
  scaled_add_ %W, %p {b = -1}
  return %v
}
# CHECK-LABEL: graph @hoist_shared(
# CHECK-NEXT: %r = mul %W, 0.5
# CHECK-NEXT: %v = mul %V, 2
# CHECK-NEXT: matmul_scaled_add_ %x, %g, %W {alpha = -1, transpose_a = true}
# CHECK-NEXT: return %v
# A product that reads another update's weight: that update stays after the fused op
# that reads it, wherever each moves.
graph @pair(%x: f32[4,3], %g: f32[4,2], %k: f32[2,3], %A: &f32[3,2], %B: &f32[3,3]) -> (f32[3,3]) {
  %p = matmul %x, %g {transpose_a = true}
  %q = matmul %A, %k
  %r = mul %B, 2
  scaled_add_ %B, %q
  scaled_add_ %A, %p
  return %r
}
# CHECK-LABEL: graph @pair(
# CHECK-NEXT: %r = mul %B, 2
# CHECK-NEXT: matmul_scaled_add_ %A, %k, %B
# CHECK-NEXT: matmul_scaled_add_ %x, %g, %A {transpose_a = true}
# CHECK-NEXT: return %r
# CHECK-LABEL: main {
# CHECK: %pm = matmul %x, %g {transpose_a = true}
# CHECK-NEXT: scaled_add_ %V, %pm
main {
  const %x : f32[4,3] = [[0.5, -1, 0.25], [1, 0.5, -0.5], [-0.25, 1, 1], [0.75, 0.5, -1]]
  const %g : f32[4,2] = [[1, -1], [0.5, 2], [-1, 0.25], [0.5, 0.5]]
  var %W : f32[3,2] = [[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]
  var %Wref : f32[3,2] = [[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]
  var %V : f32[3,2] = [[1, 2], [3, 4], [5, 6]]
  call @step(%x, %W)
  call @step(%x, %W)
  call @step_ref(%x, %Wref)
  call @step_ref(%x, %Wref)
  %xt = transpose %x
  %pm = matmul %xt, %g
  scaled_add_ %V, %pm
  var %H : f32[3,2] = [[1, 2], [3, 4], [5, 6]]
  var %HV : f32[3,2] = [[1, 1], [1, 1], [1, 1]]
  call @hoist(%x, %g, %H, %HV)
  var %S : f32[3,2] = [[1, 2], [3, 4], [5, 6]]
  %twiceS = call @hoist_shared(%x, %g, %S, %S)
  const %k : f32[2,3] = [[1, 0, -1], [0.5, 2, 1]]
  var %PA : f32[3,2] = [[1, 2], [3, 4], [5, 6]]
  var %PB : f32[3,3] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
  %twicePB = call @pair(%x, %g, %k, %PA, %PB)
}
run
print %W
print %Wref
print %V
print %H
print %HV
print %S
print %twiceS
print %PA
print %PB
# The weights numpy gives: [[-1.5534352, -1.424551], [-0.5059343, 0.409447], [-0.36247277, 0.8226303]].
# VALUES: %W: f32[3,2] = [[WEIGHTS:.*]]
# VALUES-NEXT: %Wref: f32[3,2] = [[WEIGHTS]]
# VALUES-NEXT: %V: f32[3,2] = {{\[}}[2.625, 3.8125], [1.5, 6.5], [3.5, 4.5]]
# VALUES-NEXT: %H: f32[3,2] = {{\[}}[-0.625, 0.1875], [4.5, 1.5], [6.5, 7.5]]
# VALUES-NEXT: %HV: f32[3,2] = {{\[}}[3, 3], [3, 3], [3, 3]]
# VALUES-NEXT: %S: f32[3,2] = {{\[}}[-0.625, 0.1875], [4.5, 1.5], [6.5, 7.5]]
# VALUES-NEXT: %twiceS: f32[3,2] = {{\[}}[2, 4], [6, 8], [10, 12]]
# VALUES-NEXT: %PA: f32[3,2] = {{\[}}[2.625, 3.8125], [1.5, 6.5], [3.5, 4.5]]
# VALUES-NEXT: %PB: f32[3,3] = {{\[}}[2, 4, 1], [5, 8, 1], [8, 12, 1]]
