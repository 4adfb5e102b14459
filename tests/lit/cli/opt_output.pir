# `opt -o OUT` writes the canonical text to OUT and nothing to standard output;
# an unknown pass is a usage error that lists the available passes.
# RUN: rm -f %t.out
# RUN: %pir opt %S/Inputs/good.pir -o %t.out > %t.stdout
# RUN: FileCheck %s < %t.out
# RUN: FileCheck %s --check-prefix=EMPTY --allow-empty < %t.stdout
# CHECK: h2d $x : f32[2]
# EMPTY-NOT: {{.}}
# RUN: not %pir opt %S/Inputs/good.pir --passes=no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
# PASS: pir: error: --passes=no-such-pass: unknown pass 'no-such-pass'; available passes:
# A failed opt leaves no output file behind.
# RUN: rm -f %t.bad
# RUN: not %pir opt %S/Inputs/bad.pir -o %t.bad
# RUN: not ls %t.bad
