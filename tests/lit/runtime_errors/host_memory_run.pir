# Memory a run needs beyond the declared buffers (variables, values, the run's
# backup) is charged to the same budget: a located error, the state as before.
# RUN: not %pir run --max-memory=9M %s 2>&1 | FileCheck %s
var %v : f32[1024, 1024] = zeros
main {
  %w = add %v, 1
  %u = copy_var_update_ %v, %w
}
run
print %v
# CHECK: host_memory_run.pir:9:1: error: out of host memory: {{[0-9]+}} bytes {{.*}}more would exceed the budget of 9437184 bytes (9 MiB)
