# Processing num_host_transfers batches in one run (PopXL: the host_load sits in
# a repeat over ir.num_host_transfers iterations). Each iteration loads the next
# slot of $x and stores the next slot of $y; %acc is loop-carried, %scale is
# loop-invariant.
#
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES

ir {num_host_transfers = 3}

h2d $x : f32[2]
d2h $y : f32[2]

graph @step(%acc: f32[2], %scale: f32[]) -> (f32[2]) {
  %x = host_load $x
  %sx = mul %x, %scale
  %acc2 = add %acc, %sx
  host_store $y, %acc2
  return %acc2
}

main {
  const %zero : f32[2] = 0
  var %scale : f32[] = 2
  %total = repeat @step(%zero, %scale) {count = 3}
}

# The host buffers have shape [nht] + [2].
feed $x = [[1, 2], [3, 4], [5, 6]]
run
print $y, %total
# acc: [2, 4] -> [2+6, 4+8] = [8, 12] -> [8+10, 12+12] = [18, 24]
# VALUES: $y: f32[3,2] = {{\[\[}}2, 4], [8, 12], [18, 24]]
# VALUES-NEXT: %total: f32[2] = [18, 24]

# Cursors go back to slot 0 at every run; %zero is a constant, so the same
# feed gives the same result.
run
print %total
# VALUES-NEXT: %total: f32[2] = [18, 24]

# IR: ir {num_host_transfers = 3}
# IR-EMPTY:
# IR-NEXT: h2d $x : f32[2]
# IR-NEXT: d2h $y : f32[2]
# IR-EMPTY:
# IR-NEXT: graph @step(%acc: f32[2], %scale: f32[]) -> (f32[2]) {
# IR-NEXT:   %x = host_load $x : f32[2]
# IR-NEXT:   %sx = mul %x, %scale : f32[2]
# IR-NEXT:   %acc2 = add %acc, %sx : f32[2]
# IR-NEXT:   host_store $y, %acc2
# IR-NEXT:   return %acc2
# IR-NEXT: }
# IR: %total = repeat @step(%zero, %scale) {count = 3} : f32[2]
