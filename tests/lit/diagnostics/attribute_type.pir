# Attribute values have types.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}attribute_type.pir:5:25: error: sum: attribute 'keepdims' must be true or false
const %x : f32[2] = 1
%y = sum %x {keepdims = 3}
