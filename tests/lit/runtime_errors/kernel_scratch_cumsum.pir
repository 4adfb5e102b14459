# cumsum's per-slice accumulator and logsumexp's per-column maxima, sums and
# exponentials are scratch under the host-memory budget too: located errors at the
# op, never an allocation the budget did not see.
# RUN: not %pir run --max-memory=5M %s 2>&1 | FileCheck %s --check-prefix=CUMSUM
# RUN: sed 's/cumsum %x {axis = 0}/logsumexp %x {axis = 0}/' %s > %t.pir
# RUN: not %pir run --max-memory=6M %t.pir 2>&1 | FileCheck %s --check-prefix=LSE
var %x : f32[2, 262144] = 1
%c = cumsum %x {axis = 0}
run
print %c
# CUMSUM: kernel_scratch_cumsum.pir:8:6: error: cumsum: out of host memory: 2097152 bytes (2 MiB) more would exceed the budget
# LSE: :8:6: error: logsumexp: out of host memory: 3145728 bytes (3 MiB) more would exceed the budget
