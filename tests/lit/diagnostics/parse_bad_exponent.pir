# An exponent needs digits.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_bad_exponent.pir:4:22: error: expected digits in the exponent
const %x : f32[] = 1e
