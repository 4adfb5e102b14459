# Only \" \\ \n \t \r are escapes.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_bad_escape.pir:5:34: error: unknown escape sequence: expected \", \\, \n, \t or \r
const %x : f32[] = 1
%p = print_tensor %x {title = "a\qb"}
