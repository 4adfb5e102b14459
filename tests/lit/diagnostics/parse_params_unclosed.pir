# A parse error names the bracket left open and where it was opened.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_params_unclosed.pir:5:33: error: expected ')' to close the parameter list opened at 5:9
# CHECK: {{.*}}parse_params_unclosed.pir:5:9: note: the parameter list opened here
graph @g(%a: f32[2], %b: f32[2] {
  return %a
}
