# A declaration needs `= DATA` after its type.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_decl_missing_equals.pir:4:17: error: expected '=' and a value after the type
var %w : f32[2] [1, 2]
