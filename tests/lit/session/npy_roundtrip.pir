# `save` writes what `print` shows as NPY; `load(...)` reads it back (as a
# variable, a constant and a feed). Paths are relative to this file, so the
# test runs on a copy in its own directory.
# RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.pir
# RUN: %pir run %t/prog.pir | FileCheck %s
# RUN: test -f %t/w.npy && test -f %t/h.npy && test -f %t/b.npy
h2d $x : f32[2,3]
d2h $y : f32[2,3]
var %w : f32[2,3] = [[1, 2.5, -3], [4, 5, 1e-08]]
%h = cast %w {dtype = f16}
%b = greater %w, 2
run
save %w "w.npy"
save %h "h.npy"
save %b "b.npy"
var %v : f32[2,3] = load("w.npy")
const %hc : f16[2,3] = load("h.npy")
const %bc : bool[2,3] = load("b.npy")
%x = host_load $x
host_store $y, %x
feed $x = load("w.npy")
run
print %v, %hc, %bc, $y
# CHECK: %v: f32[2,3] = {{\[\[}}1, 2.5, -3], [4, 5, 1e-08]]
# CHECK-NEXT: %hc: f16[2,3] = {{\[\[}}1, 2.5, -3], [4, 5, 0]]
# CHECK-NEXT: %bc: bool[2,3] = {{\[\[}}false, true, false], [true, true, false]]
# CHECK-NEXT: $y: f32[2,3] = {{\[\[}}1, 2.5, -3], [4, 5, 1e-08]]
