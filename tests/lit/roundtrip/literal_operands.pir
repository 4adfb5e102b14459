# Literal operands stay literals, printed in the dtype they take (that of the
# op's first tensor operand, or of the graph input they bind).
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
graph @scale(%x: f32[2], %k: f32[]) -> (f32[2]) {
  %y = mul %x, %k
  return %y
}
main {
  const %x : f32[2] = [1, 2]
  const %i : i32[2] = [1, 2]
  %a = add %x, 0.1
  %b = mul %x, [2, 0.5]
  %c = sub %i, 3
  %d = call @scale(%x, 2.5)
  %e = div 1, %x
}
# CHECK:      %a = add %x, 0.1 : f32[2]
# CHECK-NEXT: %b = mul %x, [2, 0.5] : f32[2]
# CHECK-NEXT: %c = sub %i, 3 : i32[2]
# CHECK-NEXT: %d = call @scale(%x, 2.5) : f32[2]
# CHECK-NEXT: %e = div 1, %x : f32[2]
