# `ir` needs a dictionary.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_ir_missing_dict.pir:4:4: error: expected '{' and the IR options after 'ir'
ir replication = 2
