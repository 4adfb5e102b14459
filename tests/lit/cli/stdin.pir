# FILE may be `-`: the program is read from standard input and diagnostics name
# it <stdin>.
# RUN: %pir opt - < %S/Inputs/good.pir | FileCheck %s
# CHECK: main {
# CHECK-NEXT:   %x = host_load $x : f32[2]
# RUN: not %pir check - < %S/Inputs/bad.pir 2>&1 | FileCheck %s --check-prefix=ERR --strict-whitespace
# ERR: {{^}}<stdin>:2:14: error:
# ERR-NEXT: {{^}}  %b = add %a, %nope{{$}}
# ERR-NEXT: {{^               \^$}}
