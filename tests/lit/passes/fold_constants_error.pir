# fold-constants leaves an op that fails on its constant operands in place, so
# the run fails as it does without the pass, at the same op.
# RUN: not %pir run %s > %t.plain 2>&1
# RUN: not %pir run %s --passes=fold-constants > %t.folded 2>&1
# RUN: diff %t.plain %t.folded
# RUN: FileCheck %s < %t.folded
# RUN: %pir opt %s --passes=fold-constants | FileCheck %s --check-prefix=IR
const %a : f32[2] = [1, 2]
%g = gather %a, [0, 5]
%h = add %g, 1
run
print %h
# CHECK: fold_constants_error.pir:9:6: error: gather:
# IR: %g = gather %a, [0, 5] : f32[2]
# IR: %h = add %g, 1 : f32[2]
