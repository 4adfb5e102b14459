# Exit status (tools.md §1): 0 success, 1 the program is wrong, 2 the command
# line is wrong or a file cannot be read.
# RUN: %pir check %S/Inputs/good.pir
# RUN: not %pir check %S/Inputs/bad.pir 2> %t.err
# RUN: FileCheck %s --check-prefix=BAD < %t.err
# BAD: bad.pir:2:14: error: {{.*}}%nope
#
# `not` accepts any non-zero status; Inputs/status.py checks the exact one.
# RUN: %python %S/Inputs/status.py 1 %pir check %S/Inputs/bad.pir
# RUN: %python %S/Inputs/status.py 2 %pir check %S/Inputs/does-not-exist.pir
# RUN: %python %S/Inputs/status.py 2 %pir check %S/Inputs
# RUN: %python %S/Inputs/status.py 2 %pir frobnicate
# RUN: %python %S/Inputs/status.py 2 %pir check
# RUN: %python %S/Inputs/status.py 2 %pir check a.pir b.pir
# RUN: %python %S/Inputs/status.py 2 %pir opt %S/Inputs/good.pir --bogus
# RUN: %python %S/Inputs/status.py 2 %pir opt %S/Inputs/good.pir --passes=no-such-pass
# RUN: %python %S/Inputs/status.py 0 %pir opt %S/Inputs/good.pir --passes=
#
# Warnings do not change the exit status.
# RUN: %pir check %S/Inputs/warning.pir 2>&1 | FileCheck %s --check-prefix=WARN
# WARN: warning.pir:1:{{[0-9]+}}: warning:
