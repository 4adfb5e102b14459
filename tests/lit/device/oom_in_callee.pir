# A callee's intermediates live during the call, on top of what the caller
# holds; a repeat body is counted once. The error points at the op inside the
# callee where tile 0 peaks and lists the caller's and the callee's tensors.
# RUN: not %pir run %s 2>&1 | FileCheck %s
ir {tiles_per_ipu = 2, tile_memory = 4000}
graph @body(%x: f32[400]) -> (f32[400]) {
  %e = exp %x
  %t = tanh %e
  return %t
}
main {
  const %a : f32[400] = 1
  %r = repeat @body(%a) {count = 100}
}
# f32[400] on 2 tiles: 200 elements (800 bytes) each. At `%t = tanh`: %a
# (800), %r (800, allocated at the repeat), %e and %t (800 each), plus code.
# CHECK: oom_in_callee.pir:8:8: error: out of memory on tile 0: 4288 bytes needed at its peak, 4000 available (tile_memory); 2 tiles are over the limit; live there: code of 2 op(s) (1088 bytes), %a f32[400] (800 bytes), %r f32[400] (800 bytes), %e (@body) f32[400] (800 bytes), %t (@body) f32[400] (800 bytes)
