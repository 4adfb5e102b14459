# One host-memory budget for the whole session: buffers that each fit are
# checked in total, and the declaration that crosses the budget is blamed.
# RUN: not %pir run --max-memory=10M %s 2>&1 | FileCheck %s
# RUN: env PIR_MAX_MEMORY=10M not %pir run %s 2>&1 | FileCheck %s
# RUN: not %pir run --max-memory=lots %s 2>&1 | FileCheck %s --check-prefix=FLAG
# RUN: env PIR_MAX_MEMORY=0 not %pir run %s 2>&1 | FileCheck %s --check-prefix=ENV
remote_buffer $a : f32[1024, 1024] {entries = 1}
remote_buffer $b : f32[1024, 1024] {entries = 1}
remote_buffer $c : f32[1024, 1024] {entries = 1}
main {}
run
# CHECK: host_memory_total.pir:9:{{[0-9]+}}: error: $c: host buffer of 1 × f32[1024,1024] (4194304 bytes) brings the host buffers to 12582912 bytes, more than the host memory budget of 10485760 bytes
# FLAG: --max-memory needs a positive byte count
# ENV: PIR_MAX_MEMORY='0' is not a byte count
