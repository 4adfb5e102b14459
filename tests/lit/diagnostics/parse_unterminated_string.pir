# A string must be closed.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_unterminated_string.pir:5:31: error: unterminated string
const %x : f32[] = 1
%p = print_tensor %x {title = "abc}
