# argmax's select_last_index and cumsum's exclusive/reverse print only when true
# (false is their default); the optional weight of nll_loss and bias of
# conv_transpose print as operands when given.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
main {
  const %x : f32[2,3] = [[1, 2, 3], [4, 5, 6]]
  const %t : i32[2] = [0, 2]
  const %w : f32[3] = [1, 2, 3]
  const %c : f32[1,1,2,2] = [[[[1, 2], [3, 4]]]]
  const %k : f32[1,2,2,2] = [[[[1, 0], [0, 1]], [[1, 1], [1, 1]]]]
  const %b : f32[2] = [1, -1]
  %a = argmax %x {axis = 1, select_last_index = false}
  %a2 = argmin %x {axis = 1, select_last_index = true, keepdims = false}
  %s = cumsum %x {axis = 1, exclusive = false, reverse = false}
  %s2 = cumsum %x {reverse = true, exclusive = true}
  %l = nll_loss %x, %t, %w {log_prob = true}
  %y = conv_transpose %c, %k, %b
}
# CHECK:      %a = argmax %x {axis = 1} : i32[2]
# CHECK-NEXT: %a2 = argmin %x {axis = 1, select_last_index = true} : i32[2]
# CHECK-NEXT: %s = cumsum %x {axis = 1} : f32[2,3]
# CHECK-NEXT: %s2 = cumsum %x {exclusive = true, reverse = true} : f32[2,3]
# CHECK-NEXT: %l = nll_loss %x, %t, %w {log_prob = true} : f32[]
# CHECK-NEXT: %y = conv_transpose %c, %k, %b : f32[1,2,3,3]
