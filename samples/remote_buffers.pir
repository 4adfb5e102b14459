# Remote buffers (off-chip streaming memory, runtime.md §4) and a remote
# variable: %w lives in entry 1 of $store and the program moves it with
# remote_load / remote_store. Entries not initialised by a variable start at zero.
# Variables and buffers keep their values across runs.
#
# RUN: %pir run %s | FileCheck %s
remote_buffer $store : f32[2] {entries = 3}
d2h $out : f32[2]

main {
  var %w : f32[2] = [1, 2] {remote = $store, offset = 1}
  var %copy : f32[2] = zeros

  %w_now = remote_load $store, 1        # the remote variable's current value
  %w_next = mul %w_now, 2
  remote_store $store, 1, %w_next       # write it back: %w doubles every run

  %sum = remote_load $store, 0          # entry 0: a running sum, zero at first
  %sum_next = add %sum, %w_next
  remote_store $store, 0, %sum_next
  remote_load_ $store, 0, %copy         # in place: load entry 0 into %copy
  host_store $out, %sum_next
}

run
print $out, %w, %copy
# Run 1: w = [1, 2] * 2 = [2, 4]; sum = [0, 0] + [2, 4] = [2, 4].
# CHECK: $out: f32[2] = [2, 4]
# CHECK-NEXT: %w: f32[2] = [2, 4]
# CHECK-NEXT: %copy: f32[2] = [2, 4]

run
print $out, %w, %copy
# Run 2: w = [4, 8]; sum = [2, 4] + [4, 8] = [6, 12].
# CHECK-NEXT: $out: f32[2] = [6, 12]
# CHECK-NEXT: %w: f32[2] = [4, 8]
# CHECK-NEXT: %copy: f32[2] = [6, 12]
