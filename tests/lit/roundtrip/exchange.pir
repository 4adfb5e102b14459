# Exchange blocks keep their IO ops, indented, and their attributes before the
# body (`exchange {tile_set = io} {`), the form the grammar takes canonically.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
ir {io_tiles = 2}
h2d $x : f32[2]
d2h $y : f32[2]
remote_buffer $rb : f32[2] {entries = 2}
main {
  const %c : f32[2] = [1, 2]
  exchange {
    %a = host_load $x
    %b = remote_load $rb, 1
    host_store $y, %c
  }
  exchange {
    remote_store $rb, 0, %a
  } {tile_set = io}
  %s = add %a, %b
}
# CHECK:      ir {io_tiles = 2}
# CHECK:      main {
# CHECK-NEXT:   const %c : f32[2] = [1, 2]
# CHECK-NEXT:   exchange {
# CHECK-NEXT:     %a = host_load $x : f32[2]
# CHECK-NEXT:     %b = remote_load $rb, 1 : f32[2]
# CHECK-NEXT:     host_store $y, %c
# CHECK-NEXT:   }
# CHECK-NEXT:   exchange {tile_set = io} {
# CHECK-NEXT:     remote_store $rb, 0, %a
# CHECK-NEXT:   }
# CHECK-NEXT:   %s = add %a, %b : f32[2]
# CHECK-NEXT: }
