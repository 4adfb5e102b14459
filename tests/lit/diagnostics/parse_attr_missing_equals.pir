# Attribute entries are `key = value`.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_attr_missing_equals.pir:5:19: error: expected '=' after the attribute name
const %x : f32[2] = 1
%s = sum %x {axis 0}
