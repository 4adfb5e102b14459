# Required attributes must be given.
# RUN: not %pir check %s 2>&1 | FileCheck %s
# CHECK: {{.*}}missing_attribute.pir:5:6: error: reshape: missing required attribute 'shape'
const %x : f32[2] = 1
%y = reshape %x
