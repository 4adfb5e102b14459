# The canonical form omits attributes equal to their default (language.md §10):
# `tile_set = compute` is the default placement, `tile_set = io` is not.
# RUN: %pir opt %s | FileCheck %s --implicit-check-not=compute
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
ir {io_tiles = 8}
main {
  const %a : f32[2] = [1, 2] {tile_set = compute}
  %b = add %a, %a {tile_set = compute}
  %c = io_tile_copy %b {tile_set = io}
  %d = sum %c {axis = all, keepdims = false, tile_set = compute}
}
# CHECK: const %a : f32[2] = [1, 2]{{$}}
# CHECK-NEXT: %b = add %a, %a : f32[2]{{$}}
# CHECK-NEXT: %c = io_tile_copy %b {tile_set = io} : f32[2]{{$}}
# CHECK-NEXT: %d = sum %c : f32[]{{$}}
