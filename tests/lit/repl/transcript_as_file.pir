# The REPL example of tools.md §5 is a program: run as a file, loaded into the
# REPL and typed into it, it gives the same output (the REPL adds its echo).
# RUN: %pir run %s > %t.file 2>&1
# RUN: %pir repl %s < /dev/null > %t.load 2>&1
# RUN: diff %t.file %t.load
# RUN: FileCheck %s --check-prefix=FILE --match-full-lines --strict-whitespace < %t.file
# RUN: %pir repl < %s > %t.typed 2>&1
# RUN: FileCheck %s --check-prefix=TYPED --match-full-lines --strict-whitespace < %t.typed
h2d $x : f32[2]
var %w : f32[2] = [1, 2]
# TYPED:%w: f32[2] = [1, 2]
%x = host_load $x
# TYPED-NEXT:%x: f32[2]
%y = mul %x, %w
# TYPED-NEXT:%y: f32[2]
graph @sq(%a: f32[2]) -> (f32[2]) {
  %b = mul %a, %a
  return %b
}
# TYPED-NEXT:@sq(f32[2]) -> (f32[2])
d2h $out : f32[2]
%z = call @sq(%y)
# TYPED-NEXT:%z: f32[2]
host_store $out, %z
feed $x = [3, 4]
run
# TYPED-NEXT:$out: f32[2] = [9, 64]
print $out, %z, %w
# FILE:$out: f32[2] = [9, 64]
# FILE-NEXT:%z: f32[2] = [9, 64]
# FILE-NEXT:%w: f32[2] = [1, 2]
# FILE-NOT:{{.}}
# TYPED-NEXT:$out: f32[2] = [9, 64]
# TYPED-NEXT:%z: f32[2] = [9, 64]
# TYPED-NEXT:%w: f32[2] = [1, 2]
# TYPED-NOT:{{.}}
