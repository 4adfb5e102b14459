# A kernel's scratch (topk's sort order: 8 bytes per element of the axis) is
# charged to the host-memory budget like any tensor: over it, the error is the
# op's, located at it, and says how much was asked.
# RUN: not %pir run --max-memory=4M %s 2>&1 | FileCheck %s
var %x : f32[2, 262144] = 1
%t, %ti = topk %x {k = 1}
run
print %t
# CHECK: kernel_scratch_topk.pir:6:11: error: topk: out of host memory: 2097152 bytes (2 MiB) more would exceed the budget of 4194304 bytes (4 MiB)
# CHECK-NEXT: %t, %ti = topk %x {k = 1}
