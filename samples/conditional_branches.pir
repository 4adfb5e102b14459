# conditional runs exactly one of two graphs (PopXL ops.conditional). The
# condition is a bool[] (or bool[1]) computed on the device; both branches take
# their inputs by value and have the same output types.
#
# RUN: %pir run %s | FileCheck %s
h2d $x : f32[3]
d2h $y : f32[3]

graph @double(%v: f32[3]) -> (f32[3]) {
  %r = mul %v, 2
  return %r
}

graph @clamp(%v: f32[3]) -> (f32[3]) {
  %r = clip %v {min = 0, max = 1}
  return %r
}

main {
  %x = host_load $x
  %total = sum %x
  %positive = greater %total, 0
  %y = conditional %positive, @double(%x), @clamp(%x)
  host_store $y, %y
}

feed $x = [-1, 0.5, 3]
run
print $y
# sum = 2.5 > 0: @double gives [-2, 1, 6].
# CHECK: $y: f32[3] = [-2, 1, 6]

feed $x = [-4, 0.5, 3]
run
print $y
# sum = -0.5: @clamp gives [0, 0.5, 1].
# CHECK-NEXT: $y: f32[3] = [0, 0.5, 1]
