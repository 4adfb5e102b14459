# `:dot` after `:load` of a file whose load("w.npy") is relative to the file's
# directory: the DOT is written from the program as loaded, not from a copy of
# its text elsewhere (where w.npy would not be found).
# RUN: rm -rf %t.d && mkdir -p %t.d/prog && cp %S/Inputs/relative_load.lib %t.d/prog/model.pir
# RUN: %python %S/Inputs/write_npy.py %t.d/prog/w.npy 1 2
# RUN: cd %t.d && %pir repl < %s > %t.out 2> %t.err
# RUN: FileCheck %s --match-full-lines < %t.out
# RUN: count 0 < %t.err
# RUN: FileCheck %s --check-prefix=DOT < %t.d/g.dot
:load prog/model.pir
:dot g.dot
:dot @main main.dot
# CHECK:%d: f32[2] = [2, 4]
# CHECK-NOT:{{.}}
# DOT: digraph pir {
# DOT: "main:op0" [shape=cylinder, label="var %w"];
# DOT: "main:op1" [shape=box, label="add"];
