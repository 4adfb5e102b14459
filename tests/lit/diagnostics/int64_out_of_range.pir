# i64 data is stored as i32 (with a warning); values out of range are errors.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}int64_out_of_range.pir:5:12: warning: i64 is stored as i32 (PopXL downcast)
# CHECK: {{.*}}int64_out_of_range.pir:5:22: error: const %x: value 3000000000 is out of range for i32
const %x : int64[] = 3000000000
