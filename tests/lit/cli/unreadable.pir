# A file that cannot be read is exit status 2 with "cannot read FILE: REASON".
# RUN: not %pir check %t.missing.pir 2>&1 | FileCheck %s
# CHECK: pir: error: cannot read {{.*}}missing.pir: No such file or directory
# RUN: not %pir opt %S 2>&1 | FileCheck %s --check-prefix=DIR
# DIR: pir: error: cannot read {{.*}}: Is a directory
