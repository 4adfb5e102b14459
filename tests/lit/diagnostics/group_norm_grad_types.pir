# group_norm_grad's operands: x with channels on axis 1 that `groups` divides, gamma
# of one value per channel, a gradient of x's type.
# RUN: not %pir check %s 2>&1 | FileCheck %s
const %x : f32[2,4,3] = 1
const %g : f32[4] = 1
const %g3 : f32[3] = 1
const %d : f32[2,4] = 1
%a, %b, %c = group_norm_grad %x, %g, %x {groups = 3}
# CHECK: group_norm_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: group_norm_grad: groups = 3 does not divide the 4 channels of f32[2,4,3]
%e, %f, %h = group_norm_grad %x, %g3, %x {groups = 2}
# CHECK: group_norm_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: group_norm_grad: gamma must be f32[4], got f32[3]
%i, %j, %k = group_norm_grad %x, %g, %d {groups = 2}
# CHECK: group_norm_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: group_norm_grad: the gradient must be f32[2,4,3], got f32[2,4]
