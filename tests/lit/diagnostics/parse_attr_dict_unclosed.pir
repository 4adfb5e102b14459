# An attribute dictionary left open at the end of input.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_attr_dict_unclosed.pir:6:22: error: expected '}' to close the attribute dictionary opened at 6:13
# CHECK: {{.*}}parse_attr_dict_unclosed.pir:6:13: note: the attribute dictionary opened here
const %x : f32[2] = 1
%s = sum %x {axis = 0
