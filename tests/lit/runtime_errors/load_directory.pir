# load() of a directory names the problem.
# RUN: not %pir run %s 2>&1 | FileCheck %s
var %v : f32[2] = load(".")
main {}
run
# CHECK: load_directory.pir:3:{{[0-9]+}}: error: var %v: cannot open ".": is a directory
