# The REPL example of tools.md §5, as a transcript: the echo is exact.
# RUN: %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines --strict-whitespace < %t.out
# RUN: count 0 < %t.err
h2d $x : f32[2]
var %w : f32[2] = [1, 2]
# CHECK:%w: f32[2] = [1, 2]
%x = host_load $x
# CHECK-NEXT:%x: f32[2]
%y = mul %x, %w
# CHECK-NEXT:%y: f32[2]
graph @sq(%a: f32[2]) -> (f32[2]) {
  %b = mul %a, %a
  return %b
}
# CHECK-NEXT:@sq(f32[2]) -> (f32[2])
d2h $out : f32[2]
%z = call @sq(%y)
# CHECK-NEXT:%z: f32[2]
host_store $out, %z
feed $x = [3, 4]
run
# CHECK-NEXT:$out: f32[2] = [9, 64]
# CHECK-NOT:{{.}}
