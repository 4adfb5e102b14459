# Each replica costs host memory besides its tensors (its interpreter, frames'
# slot tables, the state's tables): with many replicas of a small program that
# is most of the memory, and it counts against the budget. 16,384 replicas of
# 32 bytes of variables each take over 16 MiB of bookkeeping.
# RUN: not %pir run --max-memory=16M %s 2>&1 | FileCheck %s
# RUN: %pir run --max-memory=64M %s | FileCheck %s --check-prefix=FITS
ir {replication = 16384}
main {
  var %w : f32[4] = 1
  var %v : f32[4] = 2
  %s = replicated_all_reduce %w {op = add, group = (1, 16384)}
  %t = add %s, %v
  print_tensor %t
}
run
# CHECK: host_memory_replicas.pir:[[#@LINE-3]]:3: error: the program needs {{[0-9]+}} bytes per replica × 16384 replicas plus 0 bytes of host buffers to emulate, more than the host memory budget of 16777216 bytes
# FITS: [replica 16383] t: [16386, 16386, 16386, 16386]
