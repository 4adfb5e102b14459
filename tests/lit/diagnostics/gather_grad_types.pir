# gather_grad's operands: a float g holding the indices' shape from `axis`, integer
# indices, a size of at least 0 and an axis of the x it stands for.
# RUN: not %pir check %s 2>&1 | FileCheck %s
const %g : f32[2,3] = 1
const %i : i32[2] = [0, 1]
const %f : f32[2] = 0
const %n : i32[2,3] = 1
%a = gather_grad %g, %i {size = 4, axis = 1}
# CHECK: gather_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: gather_grad: gradient f32[2,3] must hold the indices' shape i32[2] from axis 1
%b = gather_grad %g, %f {size = 4}
# CHECK: gather_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: gather_grad: indices must be an integer tensor, got f32[2]
%c = gather_grad %n, %i {size = 4}
# CHECK: gather_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: gather_grad: expects a float operand, got i32[2,3]
%d = gather_grad %g, %i {size = -1}
# CHECK: gather_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: gather_grad: size must be >= 0, got -1
%e = gather_grad %g, %i {size = 4, axis = 2}
# CHECK: gather_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: gather_grad: axis 2 is out of range for f32[2,3] (rank 2)
%h = gather_grad %f, %n {size = 4}
# CHECK: gather_grad_types.pir:[[@LINE-1]]:{{[0-9]+}}: error: gather_grad: gradient f32[2] has fewer axes than the indices i32[2,3] it was gathered with
