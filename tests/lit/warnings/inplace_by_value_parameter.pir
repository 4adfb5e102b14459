# An in-place write nothing observes warns: to a by-value parameter (named, with
# the `&` that passes it by reference), through a callee's by-reference
# parameter, or to a temporary that nothing reads afterwards. A write followed by
# a read is a scratch copy and does not warn. Warnings go to standard error, the
# exit status stays 0; -Werror makes them errors, -w silences them.
# RUN: %pir run %s 2>%t.err | FileCheck %s --check-prefix=OUT
# RUN: FileCheck %s < %t.err
# RUN: %pir check %s 2>&1 | FileCheck %s
# RUN: not %pir check -Werror %s 2>&1 | FileCheck %s --check-prefix=WERROR
# RUN: %pir run -w %s 2>%t.quiet | FileCheck %s --check-prefix=OUT
# RUN: count 0 < %t.quiet
# RUN: %pir opt -w %s 2>&1 >/dev/null | count 0
# RUN: %pir profile -w %s 2>&1 >/dev/null | count 0
# RUN: %pir repl < %s 2>&1 | FileCheck %s --check-prefix=REPL
# RUN: not %pir repl -Werror < %s 2>&1 | FileCheck %s --check-prefix=WERROR
# RUN: %pir repl -w < %s 2>&1 | FileCheck %s --check-prefix=REPL-QUIET
# REPL: <repl>:34:15: warning: scaled_add_: writes %w in place
# REPL-QUIET-NOT: warning:
# REPL-QUIET: $o: f32[2] = [1, 2]
# CHECK: {{.*}}inplace_by_value_parameter.pir:34:15: warning: scaled_add_: writes %w in place, but %w is a by-value parameter of @step and is not read afterwards: the caller's tensor does not change
# CHECK-NEXT: {{^}}    scaled_add_ %w, %g {b = -0.5}
# CHECK-NEXT: {{^}}                ^
# CHECK-NEXT: {{.*}}inplace_by_value_parameter.pir:33:13: note: %w is declared here: write `%w: &f32[2]` to pass it by reference
# CHECK-NEXT: {{.*}}inplace_by_value_parameter.pir:39:8: warning: add_: writes %t in place, but nothing reads %t afterwards: the write has no effect
# CHECK-NEXT: {{^}}    add_ %t, 2
# CHECK-NEXT: {{^}}         ^
# CHECK-NEXT: {{.*}}inplace_by_value_parameter.pir:49:15: warning: call: lets @inner write %w in place, but %w is a by-value parameter of @outer and is not read afterwards: the caller's tensor does not change
# CHECK-NOT: warning:
# WERROR: {{.*}}:34:15: error: scaled_add_: writes %w in place, but %w is a by-value parameter of @step and is not read afterwards: the caller's tensor does not change [-Werror]
# OUT: $o: f32[2] = [1, 2]
h2d $g : f32[2]
d2h $o : f32[2]
graph @step(%w: f32[2], %g: f32[2]) -> () {
  scaled_add_ %w, %g {b = -0.5}
  return
}
graph @scratch(%a: f32[2]) -> (f32[2]) {
  %t = add %a, 1
  add_ %t, 2
  add_ %a, 1
  %u = mul %a, 2
  return %u
}
graph @inner(%w: &f32[2], %g: f32[2]) -> () {
  scaled_add_ %w, %g {b = -0.5}
  return
}
graph @outer(%w: f32[2], %g: f32[2]) -> () {
  call @inner(%w, %g)
  return
}
main {
  var %w : f32[2] = [1, 2]
  %g = host_load $g
  call @step(%w, %g)
  call @outer(%w, %g)
  host_store $o, %w
}
feed $g = [1, 1]
run
print $o
