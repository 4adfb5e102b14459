# `exchange` needs a `{` body.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_exchange_missing_brace.pir:4:10: error: expected '{' to open the exchange block
exchange host_load $x
