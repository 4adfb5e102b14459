# Only \" \\ \n \t are escapes.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_bad_escape.pir:5:34: error: unknown escape sequence: expected \", \\, \n or \t
const %x : f32[] = 1
%p = print_tensor %x {title = "a\qb"}
