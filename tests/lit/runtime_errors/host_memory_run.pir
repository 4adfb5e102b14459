# Memory a run needs beyond the declared buffers (variables, values, the run's
# backup) is charged to the same budget: a located error, the state as before.
# `pir run` keeps no backup (the script stops at its first error, so nothing could
# see the state after a failed run): the program fits in 9 MiB there. The REPL
# must restore a failed run, so its backup of %v (4 MiB) does not fit.
# RUN: %pir run --max-memory=9M %s 2>&1 | FileCheck %s --check-prefix=NOBACKUP
# RUN: not %pir repl --max-memory=9M < %s 2>&1 | FileCheck %s --check-prefix=REPL
var %v : f32[1024, 1024] = zeros
main {
  %w = add %v, 1
  %u = copy_var_update_ %v, %w
}
run
print %v
# NOBACKUP: %v: f32[1024,1024] = {{\[\[}}1, 1, 1,
# REPL: <repl>:13:1: error: out of host memory: 4194304 bytes (4 MiB) more would exceed the budget of 9437184 bytes (9 MiB) ({{[0-9]+}} bytes (8 MiB) in use;
# REPL: %v: f32[1024,1024] = {{\[\[}}0, 0, 0,
