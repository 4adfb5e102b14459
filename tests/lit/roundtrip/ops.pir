# A sample of the op catalogue: operands, literal operands, multiple results,
# attributes with defaults dropped and the rest in table order.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --match-full-lines
ir {io_tiles = 4, replication = 2}
remote_buffer $rb : f32[2,3] {entries = 4}
main {
  const %x : f32[2,3] = [[1, -2, 3], [-4, 5, -6]]
  const %seed : u32[2] = [1, 2]
  const %idx : i32[2] = [1, 0]
  var %buf : f32[2,3] = zeros
  %r = remote_load_ $rb, 2, %buf
  remote_store $rb, 3, %x
  %c1 = io_tile_copy %x
  %u = random_uniform %seed {shape = [2, 2], low = -1, high = 1}
  %n = random_normal %seed {shape = [3], std = 0.5, dtype = f16}
  %d = dropout %x, %seed {p = 0.25}
  %s1, %s2 = split_random_seed %seed
  %t0, %t1 = topk %x {k = 2, axis = 0, largest = false}
  %am = argmax %x {axis = 1, keepdims = true}
  %cs = cumsum %x {axis = 1}
  %g = gather %x, %idx {axis = 1}
  %ds = dynamic_slice %x, %idx {axes = [0, 1], sizes = [1, 2]}
  %cc = concat %x, %x, %x {axis = 1}
  %sl = slice %x {start = [0, 1], stop = [2, 3], step = [1, 2], axes = [0, 1]}
  %ar = replicated_all_reduce %x {op = mean}
  %ag = replicated_all_gather %x {output_shape = concat, axis = 1}
  %mx = maximum %x, %c1, %x
  %ln = layer_norm %x, [1, 1, 1], [0, 0, 0] {epsilon = 0.001}
  %sc = scaled_add %x, %x, 0.5, 2
  %z = init {shape = [2], dtype = i32, kind = undef}
  %sq = squeeze %am
  %us = unsqueeze %sq {axes = [0]}
  %i32 = cast %x {dtype = int32}
}
# CHECK: ir {replication = 2, io_tiles = 4}
# CHECK-EMPTY:
# CHECK-NEXT: remote_buffer $rb : f32[2,3] {entries = 4}
# CHECK-EMPTY:
# CHECK-NEXT: main {
# CHECK-NEXT:   const %x : f32[2,3] = {{\[\[}}1, -2, 3], [-4, 5, -6]]
# CHECK-NEXT:   const %seed : u32[2] = [1, 2]
# CHECK-NEXT:   const %idx : i32[2] = [1, 0]
# CHECK-NEXT:   var %buf : f32[2,3] = zeros
# CHECK-NEXT:   %r = remote_load_ $rb, 2, %buf : f32[2,3]
# CHECK-NEXT:   remote_store $rb, 3, %x
# CHECK-NEXT:   %c1 = io_tile_copy %x : f32[2,3]
# CHECK-NEXT:   %u = random_uniform %seed {shape = [2, 2], low = -1} : f32[2,2]
# CHECK-NEXT:   %n = random_normal %seed {shape = [3], std = 0.5, dtype = f16} : f16[3]
# CHECK-NEXT:   %d = dropout %x, %seed {p = 0.25} : f32[2,3]
# CHECK-NEXT:   %s1, %s2 = split_random_seed %seed : u32[2], u32[2]
# CHECK-NEXT:   %t0, %t1 = topk %x {k = 2, axis = 0, largest = false} : f32[2,3], i32[2,3]
# CHECK-NEXT:   %am = argmax %x {axis = 1, keepdims = true} : i32[2,1]
# CHECK-NEXT:   %cs = cumsum %x {axis = 1} : f32[2,3]
# CHECK-NEXT:   %g = gather %x, %idx {axis = 1} : f32[2,2]
# CHECK-NEXT:   %ds = dynamic_slice %x, %idx {axes = [0, 1], sizes = [1, 2]} : f32[1,2]
# CHECK-NEXT:   %cc = concat %x, %x, %x {axis = 1} : f32[2,9]
# CHECK-NEXT:   %sl = slice %x {start = [0, 1], stop = [2, 3], step = [1, 2], axes = [0, 1]} : f32[2,1]
# CHECK-NEXT:   %ar = replicated_all_reduce %x {op = mean} : f32[2,3]
# CHECK-NEXT:   %ag = replicated_all_gather %x {axis = 1, output_shape = concat} : f32[2,6]
# CHECK-NEXT:   %mx = maximum %x, %c1, %x : f32[2,3]
# CHECK-NEXT:   %ln = layer_norm %x, [1, 1, 1], [0, 0, 0] {epsilon = 0.001} : f32[2,3]
# CHECK-NEXT:   %sc = scaled_add %x, %x, 0.5, 2 : f32[2,3]
# CHECK-NEXT:   %z = init {shape = [2], dtype = i32, kind = undef} : i32[2]
# CHECK-NEXT:   %sq = squeeze %am : i32[2]
# CHECK-NEXT:   %us = unsqueeze %sq {axes = [0]} : i32[1,2]
# CHECK-NEXT:   %i32 = cast %x {dtype = i32} : i32[2,3]
# CHECK-NEXT: }
