# fold-constants on a zero-size operand whose leading dims are huge: the folded
# const prints as `[]` (the value of every zero-size shape) instead of its nested
# lists, one per cell before the zero dim, which would never end; the text reads back.
# RUN: %pir opt %s --passes=fold-constants > %t.folded
# RUN: FileCheck %s < %t.folded
# RUN: %pir opt %t.folded | FileCheck %s
const %x : f32[100000000000,3,0] = 0
%y = add %x, %x
%z = transpose %y {perm = [2, 1, 0]}

# CHECK: const %x : f32[100000000000,3,0] = 0
# CHECK: const %y : f32[100000000000,3,0] = []
# CHECK: const %z : f32[0,3,100000000000] = []
