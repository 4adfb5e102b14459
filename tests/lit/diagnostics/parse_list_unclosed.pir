# A data list left open.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_list_unclosed.pir:5:26: error: expected ']' to close the list opened at 5:21
# CHECK: {{.*}}parse_list_unclosed.pir:5:21: note: the list opened here
const %x : f32[2] = [1, 2
