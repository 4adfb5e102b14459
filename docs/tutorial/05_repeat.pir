# Tutorial step 5: loops with repeat, several batches per run (num_host_transfers).
#
# RUN: %pir run %s | FileCheck %s
ir {num_host_transfers = 4}

h2d $x : f32[2]
d2h $running : f32[2]

graph @step(%acc: f32[2]) -> (f32[2]) {
  %x = host_load $x
  %next = add %acc, %x
  host_store $running, %next
  return %next
}

main {
  const %zero : f32[2] = 0
  %total = repeat @step(%zero) {count = 4}
}

# The buffer of a stream holds num_host_transfers slots: shape [4] + [2].
feed $x = [[1, 0], [2, 0], [3, 1], [4, 1]]
run
print $running, %total
# Running sums: [1, 0], [3, 0], [6, 1], [10, 2].
# CHECK: $running: f32[4,2] = {{\[\[}}1, 0], [3, 0], [6, 1], [10, 2]]
# CHECK-NEXT: %total: f32[2] = [10, 2]
