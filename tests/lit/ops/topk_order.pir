# topk's order: the largest (or smallest) first, ties (-0 and +0 among them) by index, NaN
# above every number (first for the largest, last for the smallest), on integers too.
# RUN: %pir run %s | FileCheck %s
main {
  const %x : i32[7] = [3, -1, 7, 7, -5, 0, 2]
  %v, %i = topk %x {k = 3}
  %s, %si = topk %x {k = 3, largest = false}
  const %f : f32[6] = [0.0, -0.0, nan, 1, -inf, nan]
  %fv, %fi = topk %f {k = 4}
  %gv, %gi = topk %f {k = 4, largest = false}
}
run
print %v
print %i
print %s
print %si
print %fv
print %fi
print %gv
print %gi
# CHECK: %v: i32[3] = [7, 7, 3]
# CHECK-NEXT: %i: i32[3] = [2, 3, 0]
# CHECK-NEXT: %s: i32[3] = [-5, -1, 0]
# CHECK-NEXT: %si: i32[3] = [4, 1, 5]
# CHECK-NEXT: %fv: f32[4] = [nan, nan, 1, 0]
# CHECK-NEXT: %fi: i32[4] = [2, 5, 3, 0]
# CHECK-NEXT: %gv: f32[4] = [-inf, 0, -0, 1]
# CHECK-NEXT: %gi: i32[4] = [4, 0, 1, 3]
