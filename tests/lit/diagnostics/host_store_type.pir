# host_store needs exactly the stream's type.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}host_store_type.pir:8:16: error: host_store: value type f32[3] does not match $y : f32[2]
# CHECK: {{.*}}host_store_type.pir:7:7: note: %c is declared here
# CHECK: {{.*}}host_store_type.pir:6:5: note: $y is declared here
d2h $y : f32[2]
const %c : f32[3] = 1
host_store $y, %c
