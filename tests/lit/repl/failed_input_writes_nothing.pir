# An input is parsed and verified whole before any of its commands runs: a
# syntax error after a `save` on the same line writes nothing (keep.npy keeps
# the value saved by an earlier input).
# RUN: rm -rf %t && mkdir -p %t
# RUN: cd %t && not %pir repl < %s > %t/out 2> %t/err
# RUN: FileCheck %s --match-full-lines < %t/out
# RUN: FileCheck %s --check-prefix=ERR < %t/err
# RUN: cd %t && %pir run - < %S/Inputs/keep_check.pir | FileCheck %s --check-prefix=KEPT
var %w : f32[] = 1
# CHECK:%w: f32[] = 1
save %w "keep.npy"
write %w = 2
save %w "keep.npy" -1
# ERR: error: {{.*}}
print %w
# CHECK-NEXT:%w: f32[] = 2
# KEPT:%k: f32[] = 1
