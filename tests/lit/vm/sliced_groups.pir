# Sliced groups (docs/decisions.md "Sliced groups"): attention's scores, scale,
# softmax and context product, then the gradient's two products of each matmul with
# softmax_grad and the scale between them, all over batch dims [2, 4], compile to one
# `fused` instruction; the values that die within it (%s0, %s, %p, %dp, %dsm, %ds) are
# no operands (they live in slice buffers) and take no arena room: it holds the four
# results alone (4 x 65536 bytes; 655360 unfused). Grouped and --no-fuse agree.
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# RUN: %pir disasm --no-fuse %s | FileCheck %s --check-prefix=PLAIN
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
# RUN: %pir run --no-fuse %s | FileCheck %s --check-prefix=VALUES
# The step budget counts a group's multiply-adds as it counts each product's:
# RUN: not %pir run --max-steps=50000 %s 2>&1 | FileCheck %s --check-prefix=BUDGET
# RUN: not %pir run --no-fuse --max-steps=50000 %s 2>&1 | FileCheck %s --check-prefix=BUDGET
graph @attention(%q: f32[2,4,64,32], %k: f32[2,4,64,32], %v: f32[2,4,64,32], %dc: f32[2,4,64,32]) -> (f32[2,4,64,32], f32[2,4,64,32], f32[2,4,64,32], f32[2,4,64,32]) {
  %s0 = matmul %q, %k {transpose_b = true}
  %s = mul %s0, 0.17677669529663687
  %p = softmax %s {axis = -1}
  %c = matmul %p, %v
  %dp = matmul %dc, %v {transpose_b = true}
  %dv = matmul %p, %dc {transpose_a = true}
  %dsm = softmax_grad %p, %dp
  %ds = mul %dsm, 0.17677669529663687
  %dq = matmul %ds, %k
  %dk = matmul %ds, %q {transpose_a = true}
  return %c, %dv, %dq, %dk
}
main {
  var %q : f32[2,4,64,32] = uniform(-1, 1, 1)
  var %k : f32[2,4,64,32] = uniform(-1, 1, 2)
  var %v : f32[2,4,64,32] = uniform(-1, 1, 3)
  var %dc : f32[2,4,64,32] = uniform(-1, 1, 4)
  %c, %dv, %dq, %dk = call @attention(%q, %k, %v, %dc)
  %sc = sum %c {axis = all}
  %sdv = sum %dv {axis = all}
  %sdq = sum %dq {axis = all}
  %sdk = sum %dk {axis = all}
}
run
print %sc, %sdv, %sdq, %sdk
# CODE: @attention  (4 params, 16 slots, 262144-byte arena, 1 instructions)
# CODE: slot s4  arena (in a fused instruction's scratch)  %s0: f32[2,4,64,64]
# CODE: slot s11  arena (in a fused instruction's scratch)  %ds: f32[2,4,64,64]
# CODE: 0000  fused        [matmul, mul, softmax, matmul, matmul, matmul, softmax_grad, mul, matmul, matmul] k0 s0(%q), s1(%k), s{{[0-9]+}}(literal), s2(%v), s3(%dc), s{{[0-9]+}}(literal) -> s{{[0-9]+}}(%c), s{{[0-9]+}}(%dv), s{{[0-9]+}}(%dq), s{{[0-9]+}}(%dk) {{.*}}sliced_groups.pir:24:9
# CODE-NEXT: return
# PLAIN: @attention  (4 params, 16 slots, 655360-byte arena, 10 instructions)
# PLAIN-NOT: fused
# BUDGET: error: matmul: the step budget is spent
# VALUES: %sc: f32[] = -0.1672821
# VALUES-NEXT: %sdv: f32[] = -18.956104
# VALUES-NEXT: %sdq: f32[] = 6.7017055
# VALUES-NEXT: %sdk: f32[] = -1.5730038e-06
