# After a failed run, variables are as they were before it (printed by a later
# command in the REPL; in a file the run stops with status 1).
# RUN: not %pir run %s 2>&1 | FileCheck %s
h2d $x : f32[]
var %v : f32[] = 1
add_ %v, 1
run
print %v
# CHECK: %v: f32[] = 2
%x = host_load $x
run
# CHECK: state_kept_after_error.pir:10:{{[0-9]+}}: error: {{.*}}never fed
