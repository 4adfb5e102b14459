# Something that starts no item.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_stray_token.pir:4:1: error: expected a declaration, a statement or a session command
)
