# Attributes: those equal to their default are omitted; the rest print in the
# op table's order, then placement attributes; dtype aliases print canonically;
# strings are re-escaped.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
main {
  const %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  %a = sum %x {axis = all, keepdims = false}
  %b = sum %x {keepdims = true, axis = [1]}
  %c = cast %x {dtype = float16}
  %d = softmax %x {axis = -1}
  %e = softmax %x {axis = 0}
  %f = print_tensor %x {title = "say \"hi\"\n\tand \\ bye"}
  %g = print_tensor %x {title = ""}
  %h = clip %x {max = 2.5, min = -inf}
  %i = scaled_add %x, %x {a = 1.0, b = 0.25}
  %j = transpose %x {perm = [1, 0], tile = 3, ipu = 0}
  %k = add %x, %x {tiles = [0, 4], tile_set = compute}
  %l = reshape %x {shape = [3, 2]}
  const %idx : i32[2] = [0, 3]
  %m = onehot %idx {num_classes = 4, values = [0, 1], dtype = f32}
}
# CHECK:      %a = sum %x : f32[]
# CHECK-NEXT: %b = sum %x {axis = [1], keepdims = true} : f32[2,1]
# CHECK-NEXT: %c = cast %x {dtype = f16} : f16[2,3]
# CHECK-NEXT: %d = softmax %x : f32[2,3]
# CHECK-NEXT: %e = softmax %x {axis = 0} : f32[2,3]
# CHECK-NEXT: %f = print_tensor %x {title = "say \"hi\"\n\tand \\ bye"} : f32[2,3]
# CHECK-NEXT: %g = print_tensor %x : f32[2,3]
# CHECK-NEXT: %h = clip %x {max = 2.5} : f32[2,3]
# CHECK-NEXT: %i = scaled_add %x, %x {b = 0.25} : f32[2,3]
# CHECK-NEXT: %j = transpose %x {perm = [1, 0], ipu = 0, tile = 3} : f32[3,2]
# CHECK-NEXT: %k = add %x, %x {tiles = [0, 4]} : f32[2,3]
# CHECK-NEXT: %l = reshape %x {shape = [3, 2]} : f32[3,2]
# CHECK-NEXT: const %idx : i32[2] = [0, 3]
# CHECK-NEXT: %m = onehot %idx {num_classes = 4} : f32[2,4]
