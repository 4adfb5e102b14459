# Every result is printed with a name; unnamed ones get generated names that
# read back as ordinary names.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
main {
  const %x : f32[2] = [1, 2]
  print_tensor %x {title = "x"}
  %s, %i = topk %x {k = 1}
  split %x {splits = [1, 1]}
}
# CHECK: %[[P:[A-Za-z0-9_.]+]] = print_tensor %x {title = "x"} : f32[2]
# CHECK-NEXT: %s, %i = topk %x {k = 1} : f32[1], i32[1]
# CHECK-NEXT: %[[S0:[A-Za-z0-9_.]+]], %[[S1:[A-Za-z0-9_.]+]] = split %x {splits = [1, 1]} : f32[1], f32[1]
