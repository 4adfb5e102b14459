# A main body left open at the end of input.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}parse_main_unclosed.pir:6:23: error: expected '}' to close the main body opened at 5:6
# CHECK: {{.*}}parse_main_unclosed.pir:5:6: note: the main body opened here
main {
  const %x : f32[] = 1
