# A zero-size tensor whose other dims multiply past int64 prints its summary
# without computing any element offset (the indices reach 2^63 - 2 there).
# RUN: %pir run %s | FileCheck %s
const %x : f32[4611686018427387903,4,0] = 0
%c = concat %x, %x
run
print %c
# CHECK: %c: f32[9223372036854775806,4,0] = {{\[\[\[}}], [], [], []], {{.+}}, ..., {{.+}}
