# An output type list left open.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_outputs_unclosed.pir:5:33: error: expected ')' to close the output type list opened at 5:25
# CHECK: {{.*}}parse_outputs_unclosed.pir:5:25: note: the output type list opened here
graph @g(%a: f32[2]) -> (f32[2] {
  return %a
}
