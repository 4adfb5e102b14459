# `save` onto a directory names the problem (it blamed "Device or resource busy").
# RUN: not %pir run %s 2>&1 | FileCheck %s
var %v : f32[2] = [1, 2]
main {}
save %v "."
# CHECK: save_onto_directory.pir:5:{{[0-9]+}}: error: save: {{.*}}: cannot write: is a directory
