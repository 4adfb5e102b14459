# adam_updater's step counts updates from 1 (the Adam paper's t; PopXL's
# time_step after the op's own increment): a literal step of 0, as an operand or
# the attribute, divides by 1 - beta^0 = 0 and warns. Step 1 is the first update:
# m / (1 - 0.9) / (sqrt(v / (1 - 0.999)) + eps) = 1 for m = 0.1, v = 0.001.
# RUN: %pir run %s 2>%t.err | FileCheck %s --check-prefix=OUT
# RUN: FileCheck %s < %t.err
# CHECK: {{.*}}adam_step_zero.pir:17:30: warning: adam_updater: step 0 divides by 1 - beta^0 = 0 (the update is NaN): steps count from 1, the number of updates including this one
# CHECK-NEXT: {{^}}    %u0 = adam_updater %m, %v, 0
# CHECK-NEXT: {{^}}                              ^
# CHECK-NEXT: {{.*}}adam_step_zero.pir:18:37: warning: adam_updater: step 0 divides
# CHECK-NOT: warning:
# OUT: $y: f32[2] = [1, 1]
d2h $y : f32[2]
main {
  const %m : f32[2] = 0.1
  const %v : f32[2] = 0.001
  %u0 = adam_updater %m, %v, 0
  %u1 = adam_updater %m, %v {step = 0}
  %u = adam_updater %m, %v, 1 {eps = 0}
  host_store $y, %u
}
