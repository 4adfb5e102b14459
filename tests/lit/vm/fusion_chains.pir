# Fused elementwise chains (docs/decisions.md "Fused elementwise chains"): bias-add
# + relu + the relu gradient, a softmax-cross-entropy backward's elementwise part
# and an SGD update each compile to one `fused` instruction listing its ops; the values
# only the chain reads (%hb, %mask, %d, %u) are no instruction results (never written)
# and take no arena room (it holds %a, %dh, %dob alone). Fused and --no-fuse agree.
# RUN: %pir disasm %s | FileCheck %s --check-prefix=CODE
# RUN: %pir disasm --no-fuse %s | FileCheck %s --check-prefix=PLAIN
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES
# RUN: %pir run --no-fuse %s | FileCheck %s --check-prefix=VALUES
# RUN: %pir run --trace %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
graph @step(%W: &f32[2,3], %b: &f32[3], %x: f32[2,3], %g: f32[2,3], %p: f32[2,3], %t: f32[2,3]) -> (f32[2,3], f32[2,3], f32[2,3]) {
  %hb = add %x, %b
  %a = relu %hb
  const %zero : f32[] = 0
  %mask = greater %hb, %zero
  %dh = where %mask, %g, %zero
  %d = sub %p, %t
  %dob = mul %d, 0.5
  %u = mul %dh, 0.1
  scaled_add_ %W, %u {b = -1}
  return %a, %dh, %dob
}
main {
  var %W : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  var %b : f32[3] = [0.5, -1, 0]
  var %x : f32[2,3] = [[-1, 2, 0.25], [3, 0.5, -2]]
  var %g : f32[2,3] = [[10, 20, 30], [40, 50, 60]]
  var %p : f32[2,3] = [[0.25, 0.5, 0.25], [0.125, 0.75, 0.125]]
  var %t : f32[2,3] = [[0, 1, 0], [1, 0, 0]]
  %a, %dh, %dob = call @step(%W, %b, %x, %g, %p, %t)
}
run
print %a, %dh, %dob, %W
# CODE: @step  (6 params, 16 slots, 96-byte arena, 3 instructions)
# CODE-NEXT: slot s0 {{.*}}%W
# CODE: slot s6  arena (in a fused instruction's scratch)  %hb: f32[2,3]
# CODE-NEXT: slot s7  arena+0  %a: f32[2,3]
# CODE: slot s9  arena (in a fused instruction's scratch)  %mask: bool[2,3]
# CODE-NEXT: slot s10  arena+32  %dh: f32[2,3]
# CODE-NEXT: slot s11  arena (in a fused instruction's scratch)  %d: f32[2,3]
# CODE-NEXT: slot s12  arena+64  %dob: f32[2,3]
# CODE-NEXT: slot s13  arena (in a fused instruction's scratch)  %u: f32[2,3]
# CODE: 0000  fused        [add, relu, greater, where] k0 s2(%x), s1(%b), s{{[0-9]+}}(%zero), s3(%g) -> s{{[0-9]+}}(%a), s{{[0-9]+}}(%dh) {{.*}}fusion_chains.pir:16:9
# CODE-NEXT: 0001  fused        [sub, mul] k1 s4(%p), s5(%t), s{{[0-9]+}}(literal) -> s{{[0-9]+}}(%dob) {{.*}}fusion_chains.pir:18:10
# CODE-NEXT: 0002  fused        [mul, scaled_add_] k2 s{{[0-9]+}}(%dh), s{{[0-9]+}}(literal), s0(%W) -> s0(%W) {{.*}}fusion_chains.pir:20:3
# CODE-NEXT: return
# PLAIN: @step  (6 params, 16 slots, {{[0-9]+}}-byte arena
# PLAIN-NOT: scratch
# PLAIN-NOT: fused
# PLAIN: kernel       greater
# PLAIN-NOT: fused
# VALUES: %a: f32[2,3] = {{\[\[}}0, 1, 0.25], [3.5, 0, 0{{\]\]}}
# VALUES-NEXT: %dh: f32[2,3] = {{\[\[}}0, 20, 30], [40, 0, 0{{\]\]}}
# VALUES-NEXT: %dob: f32[2,3] = {{\[\[}}0.125, -0.25, 0.125], [-0.4375, 0.375, 0.0625{{\]\]}}
# VALUES-NEXT: %W: f32[2,3] = {{\[\[}}1, 0, 0], [0, 5, 6{{\]\]}}
# TRACE: @step {{.*}}fusion_chains.pir:16:9 fused[add, relu, greater, where] -> %a: f32[2,3] = {{\[\[}}0, 1, 0.25], [3.5, 0, 0{{\]\]}}, %dh: f32[2,3] = {{\[\[}}0, 20, 30], [40, 0, 0{{\]\]}}
# TRACE: fused[sub, mul] -> %dob:
# TRACE: fused[mul, scaled_add_] -> %W: f32[2,3] = {{\[\[}}1, 0, 0], [0, 5, 6{{\]\]}}
