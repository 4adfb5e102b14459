# Graphs are defined before they are called.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}undeclared_graph.pir:5:11: error: call: unknown graph @nope
const %x : f32[2] = 1
%y = call @nope(%x)
