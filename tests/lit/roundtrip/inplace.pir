# In-place ops print with their alias result when one was bound, without when not.
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s
main {
  var %W : f32[2] = [1, 2]
  var %m : f32[2] = zeros
  const %g : f32[2] = [0.5, 0.25]
  scaled_add_ %W, %g {a = 1, b = -0.1}
  accumulate_ %m, %g
  accumulate_ %m, %g {f = 0.5}
  %W2 = add_ %W, %g
  %r = relu_ %W2
  accumulator_zero_ %m
  copy_var_update_ %m, %W
  %v = reshape_ %W {shape = [2, 1]}
}
# CHECK:      scaled_add_ %W, %g {b = -0.1}
# CHECK-NEXT: accumulate_ %m, %g
# CHECK-NEXT: accumulate_ %m, %g {f = 0.5}
# CHECK-NEXT: %W2 = add_ %W, %g : f32[2]
# CHECK-NEXT: %r = relu_ %W2 : f32[2]
# CHECK-NEXT: accumulator_zero_ %m
# CHECK-NEXT: copy_var_update_ %m, %W
# CHECK-NEXT: %v = reshape_ %W {shape = [2, 1]} : f32[2,1]
