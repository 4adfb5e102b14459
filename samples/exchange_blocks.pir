# exchange { } groups IO ops into one exchange phase (language.md §8, PopXL's
# MultiExchangeOp). Its effect equals running the ops in order; no op inside
# may consume a value produced inside the same block. Attributes such as
# {tile_set = io} may stand before the body.
#
# RUN: %pir run %s | FileCheck %s
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
ir {io_tiles = 32}

h2d $a : f32[2]
h2d $b : f32[2]
d2h $sum : f32[2]
d2h $diff : f32[2]
remote_buffer $acc : f32[2] {entries = 1}

main {
  exchange {
    %a = host_load $a
    %b = host_load $b
    %previous = remote_load $acc, 0
  }
  %s = add %a, %b
  %d = sub %a, %b
  %running = add %s, %previous
  exchange {tile_set = io} {
    host_store $sum, %running
    host_store $diff, %d
    remote_store $acc, 0, %running
  }
}

feed $a = [1, 2]
feed $b = [10, 20]
run
print $sum, $diff
# [1+10, 2+20] + [0, 0] = [11, 22]; [1-10, 2-20] = [-9, -18].
# CHECK: $sum: f32[2] = [11, 22]
# CHECK-NEXT: $diff: f32[2] = [-9, -18]
run
print $sum
# The remote buffer kept [11, 22]: [11, 22] + [11, 22] = [22, 44].
# CHECK-NEXT: $sum: f32[2] = [22, 44]

# IR: main {
# IR-NEXT:   exchange {
# IR-NEXT:     %a = host_load $a : f32[2]
# IR-NEXT:     %b = host_load $b : f32[2]
# IR-NEXT:     %previous = remote_load $acc, 0 : f32[2]
# IR-NEXT:   }
# IR:   exchange {tile_set = io} {
# IR-NEXT:     host_store $sum, %running
