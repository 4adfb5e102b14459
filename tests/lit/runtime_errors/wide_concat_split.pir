# 70,000 operands and results (more than 16 bits count) run correctly (issue 11:
# the counts wrapped and split/concat overflowed a heap buffer).
# RUN: %python %S/Inputs/wide_ops.py 70000 > %t.pir
# RUN: %pir run %t.pir | FileCheck %s
# CHECK: $y: f32[70000] = [0, 1, 2, ..., 69997, 69998, 69999]
# CHECK: $z: f32[3] = [0, 1, 69999]
