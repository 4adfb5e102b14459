# A sigil needs a name.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_missing_name.pir:4:2: error: expected a name after '%'
% = add %a, %b
