# A remote buffer has at least one entry.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}remote_entries.pir:4:39: error: remote_buffer $rb: entries must be an integer >= 1
remote_buffer $rb : f32[2] {entries = 0}
