# A small training loop: linear regression y = sum(w * x), one sample per
# iteration, num_host_transfers = 2 samples per run. The gradient of
# e^2 / 2 (e = y - t) with respect to w is e * x; the step updates %w in place
# with learning rate 0.125 (scaled_add_ with b = -0.125) and keeps a running
# sum of gradients with accumulate_. %w and %grad_sum are passed by reference,
# so the repeat body's in-place writes reach the variables and every iteration
# sees the previous one's weights. Variables keep their values across runs.
#
# All numbers below are exact in f32 (multiples of powers of two), so the
# expected values do not depend on evaluation order.
#
# RUN: %pir opt %s > %t1 && %pir opt %t1 > %t2 && diff %t1 %t2
# RUN: %pir opt %s | FileCheck %s --check-prefix=IR
# RUN: %pir run %s | FileCheck %s --check-prefix=VALUES

ir {num_host_transfers = 2}

h2d $x : f32[2]
h2d $t : f32[]
d2h $loss : f32[]

graph @train_step(%w: &f32[2], %acc: &f32[2]) -> () {
  %x = host_load $x
  %t = host_load $t
  %p = mul %x, %w
  %y = sum %p
  %e = sub %y, %t
  %sq = mul %e, %e
  host_store $loss, %sq
  %g = mul %x, %e
  accumulate_ %acc, %g
  scaled_add_ %w, %g {b = -0.125}
  return
}

main {
  var %w : f32[2] = zeros
  var %grad_sum : f32[2] = zeros
  repeat @train_step(%w, %grad_sum) {count = 2}
}

feed $x = [[1, 2], [2, 1]]
feed $t = [3, 1]

run
print $loss, %w, %grad_sum
# sample 1: w = [0, 0], y = 0, e = -3, loss 9, g = [-3, -6], w = [0.375, 0.75]
# sample 2: y = 0.75 + 0.75 = 1.5, e = 0.5, loss 0.25, g = [1, 0.5],
#           w = [0.25, 0.6875], grad_sum = [-2, -5.5]
# VALUES: $loss: f32[2] = [9, 0.25]
# VALUES-NEXT: %w: f32[2] = [0.25, 0.6875]
# VALUES-NEXT: %grad_sum: f32[2] = [-2, -5.5]

run
print $loss, %w, %grad_sum
# sample 1: y = 0.25 + 1.375 = 1.625, e = -1.375, loss 1.890625,
#           g = [-1.375, -2.75], w = [0.421875, 1.03125]
# sample 2: y = 0.84375 + 1.03125 = 1.875, e = 0.875, loss 0.765625,
#           g = [1.75, 0.875], w = [0.203125, 0.921875]
# grad_sum = [-2 - 1.375 + 1.75, -5.5 - 2.75 + 0.875] = [-1.625, -7.375]
# VALUES-NEXT: $loss: f32[2] = [1.890625, 0.765625]
# VALUES-NEXT: %w: f32[2] = [0.203125, 0.921875]
# VALUES-NEXT: %grad_sum: f32[2] = [-1.625, -7.375]

# IR: graph @train_step(%w: &f32[2], %acc: &f32[2]) -> () {
# IR:   %y = sum %p : f32[]
# IR:   accumulate_ %acc, %g
# IR-NEXT:   scaled_add_ %w, %g {b = -0.125}
# IR-NEXT:   return
# IR-NEXT: }
# IR: main {
# IR-NEXT:   var %w : f32[2] = zeros
# IR-NEXT:   var %grad_sum : f32[2] = zeros
# IR-NEXT:   repeat @train_step(%w, %grad_sum) {count = 2}
# IR-NEXT: }
