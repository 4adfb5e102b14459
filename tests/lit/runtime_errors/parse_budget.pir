# The structures a parse makes are charged to the host-memory budget as they
# grow: literal data that does not fit is a located error at the element that
# crosses the budget, in run, check and the REPL, not an exhausted machine.
# RUN: %python %S/Inputs/long_line.py data 300000 > %t.data.pir
# RUN: not %pir run --max-memory=1M %t.data.pir 2>&1 | FileCheck %s --check-prefix=DATA
# RUN: env PIR_MAX_MEMORY=1M not %pir check %t.data.pir 2>&1 | FileCheck %s --check-prefix=DATA
# RUN: not %pir check --max-memory=1M %t.data.pir 2>&1 | FileCheck %s --check-prefix=DATA
# RUN: not %pir opt --max-memory=1M %t.data.pir 2>&1 | FileCheck %s --check-prefix=DATA
# RUN: not %pir disasm --max-memory=1M %t.data.pir 2>&1 | FileCheck %s --check-prefix=DATA
# RUN: not %pir dot --max-memory=1M %t.data.pir 2>&1 | FileCheck %s --check-prefix=DATA
# RUN: not %pir repl --max-memory=1M < %t.data.pir 2>&1 | FileCheck %s --check-prefix=REPL
# DATA: data.pir:1:{{[0-9]+}}: error: out of host memory: {{[0-9]+}} bytes more would exceed the budget of 1048576 bytes (1 MiB)
# REPL: <repl>:1:{{[0-9]+}}: error: out of host memory: {{[0-9]+}} bytes more would exceed the budget of 1048576 bytes (1 MiB)
#
# A statement's syntax (operands, attributes, names, dims) has a cap of its own,
# whatever the budget: 400,000 operands stop at the one that crosses it.
# RUN: %python %S/Inputs/long_line.py operands 400000 > %t.operands.pir
# RUN: not %pir check %t.operands.pir 2>&1 | FileCheck %s --check-prefix=CAP
# RUN: not %pir repl < %t.operands.pir 2>&1 | FileCheck %s --check-prefix=CAP
# CAP: :2:{{[0-9]+}}: error: statement too large: its operands, attributes, names and dimensions need more than 24 MiB ({{[0-9]+}} bytes so far); split it
#
# Data far beyond its declaration's type stops early, at the literal.
# RUN: %python -c "print('const %%c : f32[2] = [' + ', '.join(['1'] * 70000) + ']')" > %t.excess.pir
# RUN: not %pir check %t.excess.pir 2>&1 | FileCheck %s --check-prefix=EXCESS
# EXCESS: excess.pir:1:21: error: const %c: data of more than 65538 elements does not match f32[2]
